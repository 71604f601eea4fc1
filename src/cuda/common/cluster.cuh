// Thread-block clusters (sm_90): launching a one-dimensional grid of `clusters` clusters of `cluster`
// consecutive blocks each, and the cluster barrier in its two halves.
#pragma once

#include "cuda/common/launch_util.hpp"
#include "cuda/common/launch_with.cuh"

#include <cuda_runtime.h>

namespace librednn::cuda {

// The cluster barrier split in two: a thread arrives once it has published what other blocks will read
// (release), and waits before it reads theirs or leaves while they may still read its shared memory
// (acquire). Each thread alternates arrive and wait. Nothing below sm_90, where no cluster is launched.
__device__ __forceinline__ void cluster_arrive() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.arrive.release;\n" ::: "memory");
#endif
}
__device__ __forceinline__ void cluster_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("barrier.cluster.wait.acquire;\n" ::: "memory");
#endif
}

// The launch's status (check_launch naming `name`).
template <class Args>
Status launch_clusters(cudaStream_t stream, void (*kernel)(Args), const Args &args, int64_t clusters, int cluster,
                       int block_threads, size_t shared_bytes, const char *name) {
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(cluster);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    return launch_with(stream, kernel, args, dim3(static_cast<unsigned>(clusters * cluster)), block_threads,
                       shared_bytes, &attribute, 1, name);
}

}  // namespace librednn::cuda
