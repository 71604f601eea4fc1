// The problem builder cudnnLRNCrossChannelForward and cudnnLRNCrossChannelBackward share.
#pragma once

#include "descriptors/lrn.hpp"
#include "descriptors/tensor.hpp"
#include "ops/lrn/problem.hpp"

namespace librednn::api {

// The problem the descriptors describe, validated (ops/lrn/validate.hpp); dy and dx only backward.
Status lrn_problem_of(Direction direction, const cudnnLRNStruct *lrn, cudnnLRNMode_t mode, const cudnnTensorStruct *x,
                      const cudnnTensorStruct *y, const cudnnTensorStruct *dy, const cudnnTensorStruct *dx,
                      LrnProblem *problem);

}  // namespace librednn::api
