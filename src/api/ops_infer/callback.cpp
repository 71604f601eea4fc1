// cudnnSetCallback and cudnnGetCallback: where log messages go.
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnSetCallback(unsigned mask, void *udata, cudnnCallback_t fptr) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("mask", mask).arg("udata", udata).arg("fptr", reinterpret_cast<const void *>(fptr));
        librednn::CallbackState state;
        state.mask = mask;
        state.udata = udata;
        state.fn = fptr;  // NULL returns to the built-in writer (CUDNN_LOGDEST_DBG)
        librednn::set_callback_state(state);
        return CUDNN_STATUS_SUCCESS;
    });
}

// Not traced: the other libraries call it on every API call to find the callback.
cudnnStatus_t CUDNNWINAPI cudnnGetCallback(unsigned *mask, void **udata, cudnnCallback_t *fptr) {
    if (mask == nullptr || udata == nullptr || fptr == nullptr) return CUDNN_STATUS_BAD_PARAM;
    const librednn::CallbackState state = librednn::callback_state();
    *mask = state.mask;
    *udata = state.udata;
    *fptr = state.fn;
    return CUDNN_STATUS_SUCCESS;
}
