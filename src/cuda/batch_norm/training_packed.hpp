// Batch-norm training and backward at memory speed, for the common case: SPATIAL modes, bnOps BN, float,
// half or bfloat16, x and y (backward x, dy and dx) packed alike in NCHW (any plane size) or NHWC (the
// channels a multiple of the 16-byte vector's lanes), aligned.
//
// Three kernels, x read twice in all (the count for a two-pass algorithm):
//   1. statistics: the work is split over the whole GPU (NCHW: a warp per chunk of a plane of whole
//      vectors; forward over other planes of up to 64 values, a block per 16 channels x images, with
//      the planes staged in shared memory; else a block per channel x a range of its values; NHWC: a block
//      per tile of channels x a range of rows); each part's count, mean and sum of squared deviations (M2)
//      are taken in small chunks and merged pairwise (Chan, Golub and LeVeque), so no difference of large
//      sums is formed; backward: the part's sums of dy and dy * (x - mean);
//   2. one block per channel merges its parts in a fixed order (deterministic, no atomics) and writes the
//      saved and running statistics (or dscale and dbias) and the per-channel constants of pass 3;
//   3. an element-wise pass over 16-byte vectors with those constants in shared memory (NCHW planes
//      that are not whole vectors: one element a thread).
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
