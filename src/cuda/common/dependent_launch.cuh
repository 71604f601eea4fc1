// Programmatic dependent launch (sm_90): a kernel that follows another in the stream may start before the
// first has finished, do what needs none of the first's results (its launch, index arithmetic, loads of
// inputs the first does not write), and wait for the first's completion and writes at one point.
#pragma once

#include "cuda/common/launch_util.hpp"
#include "cuda/common/launch_with.cuh"

#include <cuda_runtime.h>

namespace librednn::cuda {

// Lets the stream's next kernel, where launched as a dependent, start once every block of this grid has
// called this (or exited): called at a block's start, its launch latency hides behind this grid's last blocks.
__device__ __forceinline__ void allow_dependent_launch() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.launch_dependents;");
#endif
}

// Waits until the kernel before this one in the stream has finished and its writes are visible; returns at
// once where this grid was launched without the dependency. Nothing before it may read what that kernel
// writes, or write what it reads.
__device__ __forceinline__ void wait_for_prerequisite_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Launches `kernel` on `stream`, as a programmatic dependent of the kernel before it where `dependent` (the
// caller checks that the kernel as loaded is sm_90 code, built_for_sm90: compiled for an older architecture it
// has no wait), else as usual. The launch's status (check_launch naming `name`).
template <class Args>
Status launch_maybe_dependent(cudaStream_t stream, void (*kernel)(Args), const Args &args, dim3 grid, int block_threads,
                              size_t shared_bytes, bool dependent, const char *name) {
    cudaLaunchAttribute attribute;
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    return launch_with(stream, kernel, args, grid, block_threads, shared_bytes, &attribute, dependent ? 1 : 0, name);
}

}  // namespace librednn::cuda
