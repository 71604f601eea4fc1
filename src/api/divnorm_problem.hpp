// The problem builder cudnnDivisiveNormalizationForward and cudnnDivisiveNormalizationBackward share.
#pragma once

#include "descriptors/lrn.hpp"
#include "descriptors/tensor.hpp"
#include "ops/divnorm/problem.hpp"

namespace librednn::api {

// The problem the descriptors describe, validated (ops/divnorm/validate.hpp): `out` is yDesc forward,
// dXdMeansDesc backward. A mode other than CUDNN_DIVNORM_PRECOMPUTED_MEANS is NOT_SUPPORTED: cuDNN 8.9's
// reference says it is the only one implemented, and lists no mode among the BAD_PARAM cases (NVIDIA's
// 9.19 accepts an out-of-range mode 1 and computes the same; LibreDNN refuses to guess).
Status divnorm_problem_of(Direction direction, const cudnnLRNStruct *norm, cudnnDivNormMode_t mode,
                          const cudnnTensorStruct *x, const cudnnTensorStruct *out, DivNormProblem *problem);

}  // namespace librednn::api
