// Batch-norm training and backward over packed NCHW with each channel held on chip (sm_90): a thread-block
// cluster per channel loads all of the channel's values into its registers once, combines its blocks'
// sums through distributed shared memory, and writes y (dx) from the registers. One kernel, x (and dy)
// read once: against the packed kernels' three passes (training_packed.hpp), a third of the forward's
// traffic and two fifths of the backward's saved, and no launches between passes.
//
// Taken where a channel's N x H x W values fit the cluster's registers (up to 8 blocks of 256 threads,
// 32 values a thread, 64 for 16-bit types in planes of whole vectors: 14 x 14 and 7 x 7 planes at N = 256),
// x and y (dy, dx) packed NCHW alike, float, half or bfloat16, SPATIAL modes, bnOps BN, the library built for
// sm_90. LIBREDNN_BN_CLUSTER=0 leaves every problem to the packed kernels; LIBREDNN_BN_CLUSTER=G (1 to 8)
// forces G blocks a channel where they fit (to compare).
#pragma once

#include "core/status.hpp"
#include "ops/batch_norm/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// LIBREDNN_BN_CLUSTER, for both cluster families (this and training_cluster_nhwc.hpp): 0 when "0" (the clusters
// off), 1 to 8 to force that many blocks a cluster, -1 when unset or anything else.
int forced_cluster_blocks();

// For a problem the packed kernels take in NCHW (packed_training_applicable): runs the cluster kernels where
// a channel fits them (true, *status the launch's); false, with nothing run, where it does not.
bool try_cluster_training(cudaStream_t stream, const BatchNormProblem &problem, const BatchNormBuffers &buffers,
                          Status *status);

}  // namespace librednn::cuda
