// Version, properties, error strings and runtime-error queries.
#include "api/entry.hpp"
#include "core/build_id.hpp"
#include "core/cuda_runtime.hpp"
#include "core/handle.hpp"

using librednn::Status;
using librednn::api::Call;

size_t CUDNNWINAPI cudnnGetVersion(void) { return CUDNN_VERSION; }

size_t CUDNNWINAPI cudnnGetMaxDeviceVersion(void) {
    // The newest architecture this build carries kernels for (sm_90, Hopper).
    return CUDNN_SM_90;
}

size_t CUDNNWINAPI cudnnGetCudartVersion(void) {
#if LIBREDNN_HAVE_CUDA
    return CUDART_VERSION;
#else
    return 0;  // built without the CUDA runtime
#endif
}

const char *CUDNNWINAPI cudnnGetErrorString(cudnnStatus_t status) { return librednn::status_name(status); }

cudnnStatus_t CUDNNWINAPI cudnnGetProperty(libraryPropertyType type, int *value) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("type", static_cast<int>(type)).arg("value", value);
        LIBREDNN_REQUIRE_NOT_NULL(value);
        switch (static_cast<int>(type)) {
            case MAJOR_VERSION: *value = CUDNN_MAJOR; return CUDNN_STATUS_SUCCESS;
            case MINOR_VERSION: *value = CUDNN_MINOR; return CUDNN_STATUS_SUCCESS;
            case PATCH_LEVEL: *value = CUDNN_PATCHLEVEL; return CUDNN_STATUS_SUCCESS;
        }
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "type %d is not a library property (MAJOR_VERSION, MINOR_VERSION or PATCH_LEVEL)",
                              static_cast<int>(type));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnQueryRuntimeError(cudnnHandle_t handle, cudnnStatus_t *rstatus, cudnnErrQueryMode_t mode,
                                                 cudnnRuntimeTag_t *tag) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rstatus", rstatus).arg("mode", mode).arg("tag", static_cast<const void *>(tag));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rstatus);
        if (tag != nullptr) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "tag must be NULL");
        if (mode != CUDNN_ERRQUERY_RAWCODE && mode != CUDNN_ERRQUERY_NONBLOCKING && mode != CUDNN_ERRQUERY_BLOCKING)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "mode %d is not a cudnnErrQueryMode_t",
                                  static_cast<int>(mode));
#if LIBREDNN_HAVE_CUDA
        if (mode == CUDNN_ERRQUERY_BLOCKING && handle->backend == librednn::Backend::cuda) {
            const cudaError_t err = cudaStreamSynchronize(handle->stream);
            if (err != cudaSuccess)
                return librednn::fail(CUDNN_STATUS_EXECUTION_FAILED, "the handle's stream failed: %s",
                                      cudaGetErrorString(err));
        }
#endif
        // No LibreDNN kernel records runtime errors (such as batch-norm overflow) yet: none happened.
        *rstatus = CUDNN_STATUS_SUCCESS;
        return CUDNN_STATUS_SUCCESS;
    });
}

const char *librednnGetBuildId(void) { return librednn::build_id(); }

const char *librednnGetVersionString(void) { return librednn::version_string(); }
