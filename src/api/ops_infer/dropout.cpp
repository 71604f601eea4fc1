// cudnnCreate/Destroy/Set/Restore/GetDropoutDescriptor and the dropout states and reserve-space sizes.
#include "descriptors/dropout.hpp"
#include "api/entry.hpp"
#include "core/cuda_failure.hpp"
#include "core/cuda_runtime.hpp"
#include "core/fault_injection.hpp"
#include "core/handle.hpp"
#include "descriptors/tensor.hpp"
#include "ops/common/buffer_alignment.hpp"

#include <cstring>

using librednn::Status;
using librednn::api::Call;

namespace {

// Writes the states a seed starts from into the user's buffer: host memory on the host backend, device
// memory (in the handle's stream order) on CUDA.
Status write_states(const cudnnContext &handle, void *states, const librednn::DropoutState &state) {
#if LIBREDNN_HAVE_CUDA
    if (handle.backend == librednn::Backend::cuda) {
        // From pageable memory the copy has left `state` when the call returns.
        const cudaError_t err = LIBREDNN_CUDA_SITE(
            async_copy, cudaMemcpyAsync(states, &state, sizeof state, cudaMemcpyHostToDevice, handle.stream));
        if (err != cudaSuccess) return librednn::cuda_failure(err, "writing the dropout states");
        return CUDNN_STATUS_SUCCESS;
    }
#endif
    std::memcpy(states, &state, sizeof state);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnCreateDropoutDescriptor(cudnnDropoutDescriptor_t *dropoutDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("dropoutDesc", static_cast<const void *>(dropoutDesc));
        LIBREDNN_REQUIRE_NOT_NULL(dropoutDesc);
        *dropoutDesc = new cudnnDropoutStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("dropoutDesc", dropoutDesc);
        delete dropoutDesc;  // the states buffer belongs to the user
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDropoutGetStatesSize(cudnnHandle_t handle, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        *sizeInBytes = librednn::kDropoutStatesSize;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDropoutGetReserveSpaceSize(cudnnTensorDescriptor_t xdesc, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("xdesc", xdesc).arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(xdesc);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        return librednn::dropout_reserve_space_size(*xdesc, sizeInBytes);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc, cudnnHandle_t handle,
                                                    float dropout, void *states, size_t stateSizeInBytes,
                                                    unsigned long long seed) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("dropoutDesc", dropoutDesc)
            .handle(handle)
            .arg("dropout", dropout)
            .arg("states", static_cast<const void *>(states))
            .arg("stateSizeInBytes", stateSizeInBytes)
            .arg("seed", seed);
        LIBREDNN_REQUIRE_NOT_NULL(dropoutDesc);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::check_dropout_probability(dropout));
        if (states == nullptr) {
            // cuDNN: without states the generator is not initialised and only the probability is set.
            dropoutDesc->probability = dropout;
            dropoutDesc->is_set = true;
            return CUDNN_STATUS_SUCCESS;
        }
        LIBREDNN_CHECK(librednn::check_dropout_states_size(states, stateSizeInBytes));
        LIBREDNN_CHECK(librednn::require_space_aligned("states", states, stateSizeInBytes));
        const librednn::DropoutState state = librednn::make_dropout_state(seed);
        LIBREDNN_CHECK(write_states(*handle, states, state));
        dropoutDesc->probability = dropout;
        dropoutDesc->states = states;
        dropoutDesc->states_size = stateSizeInBytes;
        dropoutDesc->seed = seed;
        dropoutDesc->is_set = true;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRestoreDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc, cudnnHandle_t handle,
                                                        float dropout, void *states, size_t stateSizeInBytes,
                                                        unsigned long long seed) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("dropoutDesc", dropoutDesc)
            .handle(handle)
            .arg("dropout", dropout)
            .arg("states", static_cast<const void *>(states))
            .arg("stateSizeInBytes", stateSizeInBytes)
            .arg("seed", seed);
        LIBREDNN_REQUIRE_NOT_NULL(dropoutDesc);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::check_dropout_probability(dropout));
        LIBREDNN_CHECK(librednn::check_dropout_states_size(states, stateSizeInBytes));
        LIBREDNN_CHECK(librednn::require_space_aligned("states", states, stateSizeInBytes));
        // The states were initialised by an earlier cudnnSetDropoutDescriptor and are taken as they
        // stand (their contents, not this seed, decide what is drawn next), on either backend.
        dropoutDesc->probability = dropout;
        dropoutDesc->states = states;
        dropoutDesc->states_size = states == nullptr ? 0 : stateSizeInBytes;
        dropoutDesc->seed = seed;
        dropoutDesc->is_set = true;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetDropoutDescriptor(cudnnDropoutDescriptor_t dropoutDesc, cudnnHandle_t handle,
                                                    float *dropout, void **states, unsigned long long *seed) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("dropoutDesc", dropoutDesc)
            .handle(handle)
            .arg("dropout", static_cast<const void *>(dropout))
            .arg("states", static_cast<const void *>(states))
            .arg("seed", static_cast<const void *>(seed));
        LIBREDNN_REQUIRE_NOT_NULL(dropoutDesc);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(dropout);
        LIBREDNN_REQUIRE_NOT_NULL(states);
        LIBREDNN_REQUIRE_NOT_NULL(seed);
        LIBREDNN_CHECK(librednn::require_dropout_set(*dropoutDesc, "dropoutDesc"));
        *dropout = dropoutDesc->probability;
        *states = dropoutDesc->states;
        *seed = dropoutDesc->seed;
        return CUDNN_STATUS_SUCCESS;
    });
}
