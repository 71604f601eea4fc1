// Mapping a failed CUDA runtime call to a status and a reason.
#include "core/cuda_failure.hpp"

#if LIBREDNN_HAVE_CUDA
#include <cstdarg>
#include <cstdio>

namespace librednn {

Status cuda_failure(cudaError_t error, const char *what, ...) {
    char action[256];
    va_list args;
    va_start(args, what);
    std::vsnprintf(action, sizeof action, what, args);
    va_end(args);
    cudaGetLastError();  // clears a non-sticky error; a sticky one stays, and fails every later call too
    const Status status =
        error == cudaErrorMemoryAllocation ? CUDNN_STATUS_ALLOC_FAILED : CUDNN_STATUS_EXECUTION_FAILED;
    return fail(status, "%s failed: %s (%s)", action, cudaGetErrorString(error), cudaGetErrorName(error));
}

}  // namespace librednn
#endif
