// Batch normalisation on the GPU (the kernels behind cudnnBatchNormalizationForwardInference,
// ForwardTraining and Backward): every mode, 4-d and 5-d, any strides, float, double, half and
// bfloat16 (computed in float, double for double; the parameters are float, double for double).
// Inference is element-wise. Training and backward over packed NCHW or NHWC (plain bnOps, not double)
// take the kernels of training_packed.hpp, which spread each channel over the GPU and read x twice. The
// rest give each parameter element a block: the block takes the statistics of its values in two passes
// (the mean, then the squared deviations from it: no difference of large sums), then normalises them;
// backward sums the gradient in one more pass. Deterministic everywhere: fixed-order sums, no atomics.
#pragma once

#include "core/status.hpp"
#include "ops/batch_norm/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *batch_norm_unsupported_reason(const BatchNormProblem &problem);

Status batch_norm(cudaStream_t stream, const BatchNormProblem &problem, const BatchNormBuffers &buffers);

}  // namespace librednn::cuda
