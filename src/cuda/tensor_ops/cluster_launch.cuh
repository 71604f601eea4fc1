// Launching a kernel in thread-block clusters (sm_90): a one-dimensional grid of `clusters` clusters of
// `cluster` consecutive blocks each.
#pragma once

#include "cuda/tensor_ops/launch_util.hpp"

#include <cuda_runtime.h>

namespace librednn::cuda {

// The launch's status (check_launch naming `name`).
template <class Args>
Status launch_clusters(cudaStream_t stream, void (*kernel)(Args), const Args &args, int64_t clusters, int cluster,
                       int block_threads, size_t shared_bytes, const char *name) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(clusters * cluster));
    config.blockDim = dim3(static_cast<unsigned>(block_threads));
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeClusterDimension;
    attribute.val.clusterDim.x = static_cast<unsigned>(cluster);
    attribute.val.clusterDim.y = 1;
    attribute.val.clusterDim.z = 1;
    config.attrs = &attribute;
    config.numAttrs = 1;
    cudaLaunchKernelEx(&config, kernel, args);
    return check_launch(name);
}

}  // namespace librednn::cuda
