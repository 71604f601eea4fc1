// Batch-norm training forward over packed NHWC half and bfloat16 with each tile of 16 channels held on chip
// (sm_90): a thread-block cluster per tile loads the tile's N x H x W rows of 32 bytes (one sector a row) into
// its registers once, sums each channel over its blocks through distributed shared memory (the mean, then the
// squared deviations from it, in double and a fixed order: training_cluster.hpp's arithmetic), and writes y
// from the registers. One kernel that reads x once, where the packed kernels (training_packed.hpp) take
// three launches and read it twice: the small layers (ResNet's 7 x 7 at N = 256) were latency-bound there.
//
// Taken where the channels are a multiple of 16 and a tile's rows fit the cluster (up to 8 blocks of 256
// threads, 16 rows of a 16-byte vector a thread: 16384 rows, N x H x W) and the GPU holds all the clusters at
// once, SPATIAL modes, bnOps BN, the library built for sm_90. LIBREDNN_BN_CLUSTER=0 leaves every problem to the
// packed kernels; =G (1 to 8) forces G blocks a tile where they fit (in any number of waves).
#pragma once

#include "core/status.hpp"
#include "ops/batch_norm/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// For a training forward the packed kernels take in NHWC (packed_training_applicable): runs the cluster
// kernel where a tile fits it (true, *status the launch's); false, with nothing run, where it does not.
bool try_cluster_nhwc_training(cudaStream_t stream, const BatchNormProblem &problem, const BatchNormBuffers &buffers,
                               Status *status);

}  // namespace librednn::cuda
