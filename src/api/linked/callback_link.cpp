// Compiled into each shared sub-library except ops_infer: its log lines follow the callback that
// cudnnSetCallback stored in ops_infer, read through ops_infer's exported cudnnGetCallback.
#include "api/entry.hpp"

namespace librednn::api {

namespace {

CallbackState callback_from_ops_infer() {
    CallbackState state;
    if (cudnnGetCallback(&state.mask, &state.udata, &state.fn) != CUDNN_STATUS_SUCCESS) state = CallbackState{};
    return state;
}

// Runs when the library is loaded.
const bool kCallbackSourceSet = [] {
    set_callback_source(&callback_from_ops_infer);
    return true;
}();

}  // namespace

}  // namespace librednn::api
