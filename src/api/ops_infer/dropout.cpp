// cudnnCreate/Destroy/Set/Restore/GetDropoutDescriptor and the dropout states and reserve-space sizes.
#include "descriptors/dropout.hpp"
#include "api/entry.hpp"
#include "core/handle.hpp"
#include "descriptors/tensor.hpp"

#include <cstring>

using librednn::Status;
using librednn::api::Call;

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
        if (handle->backend != librednn::Backend::host) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                  "initialising dropout states on the GPU is not implemented yet");
        }
        const librednn::DropoutState state = librednn::make_dropout_state(seed);
        std::memcpy(states, &state, sizeof state);
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
