// The problem builder cudnnBatchNormalizationForwardInference, ForwardTraining and Backward share.
#pragma once

#include "descriptors/tensor.hpp"
#include "ops/batch_norm/problem.hpp"

namespace librednn::api {

// The problem the descriptors describe, validated (ops/batch_norm/validate.hpp). `y` is yDesc
// (inference, training) or dyDesc (backward); `dx` only backward.
Status batch_norm_problem_of(BatchNormPhase phase, cudnnBatchNormMode_t mode, const cudnnTensorStruct *x,
                             const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                             const cudnnTensorStruct *parameters, double epsilon, BatchNormProblem *problem);

// BAD_PARAM unless both or neither of a pair of optional pointers is given; *given says which.
Status optional_pair(const void *first, const char *first_name, const void *second, const char *second_name,
                     bool *given);

}  // namespace librednn::api
