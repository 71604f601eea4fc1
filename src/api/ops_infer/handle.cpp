// cudnnCreate, cudnnDestroy and the handle's stream.
#include "core/handle.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreate(cudnnHandle_t *handle) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("handle", static_cast<const void *>(handle));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        return librednn::create_handle(handle);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroy(cudnnHandle_t handle) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        return librednn::destroy_handle(handle);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetStream(cudnnHandle_t handle, cudaStream_t streamId) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("streamId", static_cast<const void *>(streamId));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        return librednn::set_handle_stream(handle, streamId);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetStream(cudnnHandle_t handle, cudaStream_t *streamId) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("streamId", static_cast<const void *>(streamId));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(streamId);
        *streamId = handle->stream;
        return CUDNN_STATUS_SUCCESS;
    });
}
