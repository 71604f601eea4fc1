// Global pooling (a window the size of the image, no padding: one output per image and channel, as ResNet's
// head pools 7x7 planes) over packed NCHW and NHWC, float, half and bfloat16, at memory speed.
// NCHW forward: a block copies the planes of 128 consecutive (image, channel) pairs, one contiguous stretch,
// into shared memory with 16-byte loads (planes of at most 64 values), then each thread folds one plane.
// NHWC forward: four threads fold one 16-byte vector of channels over the image's positions (positions p,
// p + 4, ..., eight loads at a time; consecutive threads, consecutive vectors), then one folds the four. NCHW
// folds in the window's row-major order, as the packed kernels (the same maxima and sums); NHWC's maxima are
// the same (but for the sign of a zero maximum), its sums in another order. Backward, the averages: every input
// gets its output's dy over the count (NHWC: a thread loads one 16-byte vector of dy and writes it to a run of 49
// positions, a 7 x 7 image; NCHW: a thread writes a 16-byte vector of dx, loading the dy of the one or two planes it
// meets). The max modes' backward is left to the packed kernels.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the global-pooling kernels take this problem with these buffers.
bool pooling_global_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_global(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
