// LRN across channels on the GPU (the kernels behind cudnnLRNCrossChannelForward/Backward): any
// strides, float, double, half and bfloat16 (computed in float, double for double). One thread per
// pillar (an image's channels at one spatial position), walking its channels once with the last 16
// channels' squares (and, backward, their gradient terms) in a shared-memory ring: one power per
// output, each input read from memory once. Every window sum is taken afresh from the ring (at most 16
// terms), never by a running add-and-subtract, so it errs like a short sum. Deterministic. Not in place
// (the host backend is).
#pragma once

#include "core/status.hpp"
#include "ops/lrn/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *lrn_unsupported_reason(const LrnProblem &problem);

Status lrn(cudaStream_t stream, const LrnProblem &problem, const LrnBuffers &buffers);

}  // namespace librednn::cuda
