// The per-channel kernels of the fused ops on the GPU (cudnnFusedOpsExecute; the composition around the
// CUDA convolution solvers is ops/fused_ops/solvers.hpp's): the scale-bias-ReLU prologue (one fused
// multiply-add in float, double for double data, rounded once to x's type: the host's bits), the
// per-channel sums of y (one block per channel, double accumulation, a fixed reduction order:
// deterministic) and the batch-norm finalization (one thread per channel, in double).
#pragma once

#include "core/status.hpp"
#include "ops/fused_ops/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *fused_ops_unsupported_reason(const FusedOpsProblem &problem);

Status fused_scale_bias_activation(cudaStream_t stream, const FusedOpsProblem &problem, const void *x,
                                   const void *scale, const void *bias, void *out);

Status fused_channel_sums(cudaStream_t stream, const FusedOpsProblem &problem, const void *y, void *sum,
                          void *square_sum);

Status fused_bn_finalize(cudaStream_t stream, const FusedOpsProblem &problem, const FusedOpsBuffers &buffers);

}  // namespace librednn::cuda
