// Sums over a thread-block cluster, for the batch-norm cluster kernels (training_cluster.cu over NCHW, a
// cluster a channel; training_cluster_nhwc.cu over NHWC, a cluster a tile of channels): each thread's K
// float values summed over the cluster in double and in a fixed order (warp, block, the blocks by rank), so
// every block of the cluster gets the same bits. kGroups interleaved groups of threads (thread t in group
// t % kGroups) sum separately: over NHWC a thread's values are the channels of its vector, and neighbouring
// threads hold different vectors of the tile.
#pragma once

#include "cuda/common/device_common.cuh"

#include <cooperative_groups.h>

namespace librednn::cuda {

constexpr int kMaxCluster = 8;  // the portable cluster size: the most blocks a cluster sums

// One round's partial sums: each warp's, each block's (read by the cluster's other blocks), the cluster's.
template <int K, int kGroups, int kWarps>
struct ClusterSums {
    double warp[kWarps][kGroups][K];
    double block[kGroups][K];
    double total[kGroups][K];
};

// totals = the sums of `values` over the cluster's threads of this thread's group. A round uses its own
// ClusterSums; after its last round a block arrives on the cluster barrier, and waits on it before it
// returns (other blocks may still read its sums).
template <int K, int kGroups, int kWarps>
__device__ __forceinline__ void cluster_sums(const float (&values)[K], double (&totals)[K],
                                             ClusterSums<K, kGroups, kWarps> &s, int blocks) {
    static_assert(kGroups >= 1 && kGroups <= 32 && (kGroups & (kGroups - 1)) == 0 && kGroups * K <= 256);
    namespace cg = cooperative_groups;
    cg::cluster_group cluster = cg::this_cluster();
    const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
#pragma unroll
    for (int k = 0; k < K; ++k) {
        // The butterfly over the lanes of one group (warp_sum's order where kGroups is 1).
        double v = static_cast<double>(values[k]);
#pragma unroll
        for (int offset = 16; offset >= kGroups; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
        if (lane < kGroups) s.warp[warp][lane][k] = v;
    }
    __syncthreads();
    if (threadIdx.x < kGroups * K) {
        const int group = threadIdx.x / K, k = threadIdx.x % K;
        double block = 0.0;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) block += s.warp[w][group][k];
        s.block[group][k] = block;
    }
    cluster.sync();  // every block's sums are visible cluster-wide
    // The cluster's sums: eight threads a sum, thread `rank` reading block rank's (all reads in flight at once;
    // a warp reading the sums one after another waited on each), then a butterfly over the eight.
    constexpr int kSums = kGroups * K, kReaders = kSums * kMaxCluster;
    static_assert(kReaders <= 256, "a thread a block's sum");
    if (threadIdx.x < (kReaders + 31) / 32 * 32) {  // whole warps: the shuffles take every lane
        const int j = threadIdx.x / kMaxCluster, rank = threadIdx.x % kMaxCluster;
        double v = j < kSums && rank < blocks ? *cluster.map_shared_rank(&s.block[j / K][j % K], rank) : 0.0;
#pragma unroll
        for (int offset = kMaxCluster / 2; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
        if (rank == 0 && j < kSums) s.total[j / K][j % K] = v;
    }
    __syncthreads();
    const int group = threadIdx.x % kGroups;
#pragma unroll
    for (int k = 0; k < K; ++k) totals[k] = s.total[group][k];
}

}  // namespace librednn::cuda
