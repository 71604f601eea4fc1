// Backend selection at cudnnCreate.
#include "core/backend.hpp"

#include "core/cuda_runtime.hpp"

#include <cstdlib>
#include <cstring>

namespace librednn {

const char *backend_name(Backend backend) { return backend == Backend::cuda ? "cuda" : "host"; }

bool cuda_compiled_in() {
#if LIBREDNN_HAVE_CUDA
    return true;
#else
    return false;
#endif
}

int cuda_device_count() {
#if LIBREDNN_HAVE_CUDA
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError();  // clear the sticky "no driver" error so it does not surface later
        return 0;
    }
    return count;
#else
    return 0;
#endif
}

Status choose_backend(Backend *backend) {
    const char *requested = std::getenv("LIBREDNN_BACKEND");
    if (requested == nullptr || requested[0] == '\0') {
        *backend = cuda_device_count() > 0 ? Backend::cuda : Backend::host;
        return CUDNN_STATUS_SUCCESS;
    }
    if (std::strcmp(requested, "host") == 0) {
        *backend = Backend::host;
        return CUDNN_STATUS_SUCCESS;
    }
    if (std::strcmp(requested, "cuda") == 0) {
        if (!cuda_compiled_in())
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "LIBREDNN_BACKEND=cuda, but this LibreDNN was built without the CUDA backend");
        if (cuda_device_count() == 0)
            return fail(CUDNN_STATUS_NOT_INITIALIZED,
                        "LIBREDNN_BACKEND=cuda, but no CUDA device is usable (no GPU, or no driver libcuda.so.1)");
        *backend = Backend::cuda;
        return CUDNN_STATUS_SUCCESS;
    }
    return fail(CUDNN_STATUS_BAD_PARAM, "LIBREDNN_BACKEND=%s is not a backend; use host or cuda", requested);
}

}  // namespace librednn
