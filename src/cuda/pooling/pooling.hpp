// Pooling forward and backward on the GPU (the kernels behind cudnnPoolingForward/Backward): MAX,
// MAX_DETERMINISTIC and both averages over 1 to 3 spatial dims, any strides, float, double, half and
// bfloat16 (computed in float, double for double). The backward pass gathers: one thread per input
// element sums what the windows covering it send back (the first maximum in window order, or an
// average's share), so it needs no atomics and is deterministic. 3x3 windows at stride 2 with padding 1 over
// packed NCHW take the strip kernels of pooling_strips.hpp, windows the size of the image (global
// pooling) those of pooling_global.hpp, other packed 2-D problems the kernels of pooling_packed.hpp.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *pooling_unsupported_reason(const PoolingProblem &problem);

Status pooling(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
