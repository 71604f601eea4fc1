// A kernel launched through cudaLaunchKernelEx with launch attributes (a cluster's shape, a programmatic
// dependence on the kernel before it): the configuration written in one place for cluster.cuh and
// dependent_launch.cuh.
#pragma once

#include "cuda/common/launch_util.hpp"

#include <cuda_runtime.h>

namespace librednn::cuda {

// Launches `kernel` on `stream` with `count` attributes (none where 0); the launch's status (check_launch naming
// `name`).
template <class Args>
Status launch_with(cudaStream_t stream, void (*kernel)(Args), const Args &args, dim3 grid, int block_threads,
                   size_t shared_bytes, cudaLaunchAttribute *attributes, int count, const char *name) {
    cudaLaunchConfig_t config = {};
    config.gridDim = grid;
    config.blockDim = dim3(static_cast<unsigned>(block_threads));
    config.dynamicSmemBytes = shared_bytes;
    config.stream = stream;
    config.attrs = attributes;
    config.numAttrs = static_cast<unsigned>(count);
    cudaLaunchKernelEx(&config, kernel, args);
    return check_launch(name);
}

}  // namespace librednn::cuda
