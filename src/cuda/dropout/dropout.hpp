// Dropout on the GPU (the kernels behind cudnnDropoutForward/Backward): any strides, float, double, half
// and bfloat16 (scaled in float, double for double). One thread per group of four elements, the four
// words of one Philox draw (descriptors/dropout.hpp, "The draw"), so the mask is the host backend's bit
// for bit. Forward reads the key and the call number from the states in device memory, and a one-thread
// kernel queued after it counts the call. Deterministic; in place too.
#pragma once

#include "core/status.hpp"
#include "ops/dropout/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *dropout_unsupported_reason(const DropoutProblem &problem);

Status dropout(cudaStream_t stream, const DropoutProblem &problem, const DropoutBuffers &buffers);

}  // namespace librednn::cuda
