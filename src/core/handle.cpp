// Handle creation, destruction and streams.
#include "core/handle.hpp"

#include "core/cuda_failure.hpp"
#include "core/cuda_runtime.hpp"
#include "core/fault_injection.hpp"

#include <new>

namespace librednn {

Status create_handle(cudnnContext **out) {
    Backend backend = Backend::host;
    LIBREDNN_CHECK(choose_backend(&backend));
    LIBREDNN_FAULT_HOST_ALLOCATION();
    auto *handle = new cudnnContext;  // std::bad_alloc: the call guard answers CUDNN_STATUS_ALLOC_FAILED
    handle->backend = backend;
#if LIBREDNN_HAVE_CUDA
    if (backend == Backend::cuda) {
        int device = 0;
        cudaError_t err = cudaGetDevice(&device);
        // Creates the primary context now, not mid-call.
        if (err == cudaSuccess) err = LIBREDNN_CUDA_SITE(device_init, cudaFree(nullptr));
        if (err != cudaSuccess) {
            delete handle;
            cudaGetLastError();
            return fail(CUDNN_STATUS_NOT_INITIALIZED, "the CUDA runtime could not initialise the device: %s",
                        cudaGetErrorString(err));
        }
        handle->device = device;
    }
#endif
    *out = handle;
    return CUDNN_STATUS_SUCCESS;
}

Status destroy_handle(cudnnContext *handle) {
    delete handle;
    return CUDNN_STATUS_SUCCESS;
}

Status set_handle_stream(cudnnContext *handle, cudaStream_t stream) {
#if LIBREDNN_HAVE_CUDA
    if (handle->backend == Backend::cuda && stream != nullptr) {
        // A stream of another device (or a destroyed one) is the user's mistake; say so now.
        int stream_device = -1;
        cudaError_t err = cudaStreamGetDevice(stream, &stream_device);
        if (err != cudaSuccess) {
            cudaGetLastError();
            return fail(CUDNN_STATUS_BAD_PARAM, "streamId is not a valid CUDA stream: %s", cudaGetErrorString(err));
        }
        if (stream_device != handle->device)
            return fail(CUDNN_STATUS_BAD_PARAM, "streamId belongs to device %d, the handle to device %d", stream_device,
                        handle->device);
    }
#endif
    handle->stream = stream;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn
