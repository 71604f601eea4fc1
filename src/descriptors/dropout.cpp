// The dropout descriptor's rules, the states a seed starts from, and the descriptor's description.
#include "descriptors/dropout.hpp"

#include "descriptors/describe.hpp"
#include "descriptors/tensor.hpp"

#include <cinttypes>
#include <cstdio>

namespace librednn {

DropoutState make_dropout_state(unsigned long long seed) {
    DropoutState state{};
    state.magic = kDropoutStateMagic;
    state.version = kDropoutStateVersion;
    state.seed = seed;
    const uint64_t key = splitmix64(seed);
    state.key[0] = static_cast<uint32_t>(key);
    state.key[1] = static_cast<uint32_t>(key >> 32);
    state.calls = 0;
    return state;
}

Status check_dropout_probability(float dropout) {
    if (dropout >= 0.0f && dropout <= 1.0f) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "dropout is %.9g, must be a probability between 0 and 1", dropout);
}

Status check_dropout_states_size(const void *states, size_t states_size) {
    if (states == nullptr || states_size >= kDropoutStatesSize) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_INVALID_VALUE,
                "stateSizeInBytes is %zu, the states need %zu bytes (cudnnDropoutGetStatesSize)", states_size,
                kDropoutStatesSize);
}

Status require_dropout_set(const cudnnDropoutStruct &desc, const char *name) {
    if (desc.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM,
                "%s has not been set (call cudnnSetDropoutDescriptor or cudnnRestoreDropoutDescriptor first)", name);
}

Status dropout_reserve_space_size(const cudnnTensorStruct &x, size_t *bytes) {
    LIBREDNN_CHECK(require_tensor_set(&x, "xdesc"));
    *bytes = static_cast<size_t>(tensor_element_count(x));
    return CUDNN_STATUS_SUCCESS;
}

std::string dropout_to_string(const cudnnDropoutStruct &desc) {
    if (!desc.is_set) return "unset";
    char buffer[160];
    if (desc.states == nullptr) {
        std::snprintf(buffer, sizeof buffer, "p %.9g, seed %llu, no states", desc.probability, desc.seed);
    } else {
        std::snprintf(buffer, sizeof buffer, "p %.9g, seed %llu, states 0x%" PRIxPTR " (%zu bytes)", desc.probability,
                      desc.seed, reinterpret_cast<uintptr_t>(desc.states), desc.states_size);
    }
    return buffer;
}

namespace api {

std::string describe(const cudnnDropoutStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "DropoutDescriptor{" + dropout_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
