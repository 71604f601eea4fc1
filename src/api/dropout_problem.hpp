// The problem builder cudnnDropoutForward and cudnnDropoutBackward share.
#pragma once

#include "descriptors/dropout.hpp"
#include "descriptors/tensor.hpp"
#include "ops/dropout/problem.hpp"

#include <cstddef>

namespace librednn::api {

// The problem the descriptors describe, validated (ops/dropout/validate.hpp): `in` is x forward and dy
// backward, `out` y or dx. The descriptor must have been set with states, and the reserve space must
// hold a byte per element (BAD_PARAM otherwise, as cuDNN).
Status dropout_problem_of(Direction direction, const cudnnDropoutStruct *dropout, const cudnnTensorStruct *in,
                          const void *in_data, const cudnnTensorStruct *out, const void *out_data, size_t reserve_bytes,
                          DropoutProblem *problem);

}  // namespace librednn::api
