// LRN across channels on the GPU (the kernels behind cudnnLRNCrossChannelForward/Backward): any
// strides, float, double, half and bfloat16 (computed in float, double for double). Two kernels:
// - the tile kernel (when a block's 48 KB hold enough pillars, an image's channels at one spatial
//   position): a block stages its pillars' channels in shared memory in the order memory runs (NHWC
//   channels innermost, NCHW pillars innermost), so loads and stores coalesce, then forms every output
//   from the staged window; backward first every term dy_c x_c s_c^(-beta-1) and power s_c^-beta, then
//   the gradients;
// - the ring kernel (many channels): one thread per pillar walks its channels once with the last 16
//   channels' squares (backward also terms and powers) in a shared-memory ring.
// Both take one power per output and read each input from memory once; every window sum is taken
// afresh (at most 16 terms), never by a running add-and-subtract, so it errs like a short sum.
// Deterministic. Not in place (the host backend is).
#pragma once

#include "core/status.hpp"
#include "ops/lrn/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *lrn_unsupported_reason(const LrnProblem &problem);

Status lrn(cudaStream_t stream, const LrnProblem &problem, const LrnBuffers &buffers);

}  // namespace librednn::cuda
