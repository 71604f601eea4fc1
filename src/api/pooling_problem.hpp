// The problem builder cudnnPoolingForward and cudnnPoolingBackward share.
#pragma once

#include "descriptors/pooling.hpp"
#include "descriptors/tensor.hpp"
#include "ops/pooling/problem.hpp"

namespace librednn::api {

// The problem the descriptors describe, validated (ops/pooling/validate.hpp); dy and dx only backward.
Status pooling_problem_of(Direction direction, const cudnnPoolingStruct *pooling, const cudnnTensorStruct *x,
                          const cudnnTensorStruct *y, const cudnnTensorStruct *dy, const cudnnTensorStruct *dx,
                          PoolingProblem *problem);

}  // namespace librednn::api
