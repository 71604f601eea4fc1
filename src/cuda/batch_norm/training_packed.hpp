// Batch-norm training and backward at memory speed, for the common case: SPATIAL modes, bnOps BN, float,
// half or bfloat16, x and y (backward x, dy and dx) packed alike in NCHW or NHWC, whole 16-byte vectors
// (NCHW: the spatial size, NHWC: the channels, a multiple of the lanes), aligned.
//
// Three kernels, x read twice in all (the count for a two-pass algorithm):
//   1. statistics: the work is split over the whole GPU (NCHW: a warp per chunk of one channel plane;
//      NHWC: a block per tile of channels x a range of rows), each part's count, mean and sum of squared
//      deviations (M2) taken in chunks of four values and merged pairwise (Chan, Golub and LeVeque), so no
//      difference of large sums is ever formed; backward: the part's sums of dy and dy * (x - mean);
//   2. one block per channel merges its parts in a fixed order (deterministic, no atomics) and writes the
//      saved and running statistics (or dscale and dbias) and the per-channel constants of pass 3;
//   3. an element-wise pass over 16-byte vectors with those constants in shared memory.
// The parts live in memory taken with cudaMallocAsync on the handle's stream and given back after.
#pragma once

#include "core/status.hpp"
#include "ops/batch_norm/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the packed kernels take this training or backward problem with these buffers.
bool packed_training_applicable(const BatchNormProblem &problem, const BatchNormBuffers &buffers);

Status batch_norm_packed_training(cudaStream_t stream, const BatchNormProblem &problem,
                                  const BatchNormBuffers &buffers);

}  // namespace librednn::cuda
