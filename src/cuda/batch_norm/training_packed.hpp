// Batch-norm training and backward at memory speed, for the common case: SPATIAL modes, bnOps BN, float,
// half or bfloat16, x and y (backward x, dy and dx) packed alike in NCHW (any plane size) or NHWC (the
// channels a multiple of the 16-byte vector's lanes), aligned.
//
// Three kernels, x read twice in all (the count for a two-pass algorithm):
//   1. statistics: the work is split over the whole GPU (NCHW planes of whole vectors: a warp per chunk of
//      a plane, all of the chunk in registers at once, its mean and then its squared deviations summed over
//      the warp; forward over other planes of up to 64 values, a block per 16 channels x images, with the
//      planes staged in shared memory; else a block per channel x a range of its values; NHWC: a block per
//      tile of channels x a range of rows, in whole waves of the blocks an SM holds); each part's count,
//      mean and sum of squared deviations (M2) come from small chunks merged pairwise (Chan, Golub and
//      LeVeque), so no difference of large sums is formed; backward: the part's sums of dy and
//      dy * (x - mean);
//   2. a block per channel (a warp per channel where parts are few) merges its parts in a fixed order
//      (deterministic, no atomics) and writes the saved and running statistics (or dscale and dbias) and
//      the per-channel constants of pass 3;
//   3. an element-wise pass over 16-byte vectors with those constants on chip (channel_constants.cuh),
//      taking the tensor from its end so that it re-reads from L2 what pass 1 read last (NCHW tensors that
//      are not whole vectors: one element a thread).
// The parts live in memory taken with cudaMallocAsync on the handle's stream and given back after.
#pragma once

#include "core/status.hpp"
#include "ops/batch_norm/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the packed kernels take this training or backward problem with these buffers; where they do,
// *channels_last says whether x and y (backward x, dy and dx) are packed NHWC (true) or NCHW (false).
bool packed_training_applicable(const BatchNormProblem &problem, const BatchNormBuffers &buffers, bool *channels_last);

// A problem they take, in the layout packed_training_applicable gave.
Status batch_norm_packed_training(cudaStream_t stream, const BatchNormProblem &problem, const BatchNormBuffers &buffers,
                                  bool channels_last);

}  // namespace librednn::cuda
