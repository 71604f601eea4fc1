// cuDNN 8's logging: CUDNN_LOG{ERR,WARN,INFO}_DBG and CUDNN_LOGDEST_DBG, and cudnnSetCallback.
#pragma once

#include <cudnn.h>

#include <string>

namespace librednn {

// Where messages go: a user callback (fn != nullptr) or the built-in writer to CUDNN_LOGDEST_DBG.
// `mask` holds CUDNN_SEV_*_EN bits and filters both.
struct CallbackState {
    unsigned mask = 0;
    void *udata = nullptr;
    cudnnCallback_t fn = nullptr;
};

// The process-wide callback state. libcudnn_ops_infer holds it; every other library reads it from
// there through the public cudnnGetCallback (see set_callback_source). Starts from the environment.
CallbackState callback_state();
void set_callback_state(const CallbackState &state);

// Lets a library other than ops_infer read the callback state through ops_infer's public API.
using CallbackSource = CallbackState (*)();
void set_callback_source(CallbackSource source);

// True when the environment variable `name` is set to something other than "" or "0".
bool environment_flag(const char *name);

// The mask the environment asks for (CUDNN_LOGERR_DBG=1 etc.), read once per library.
unsigned environment_log_mask();

// True when a message of this severity would go anywhere.
bool log_enabled(cudnnSeverity_t severity);

// Context a message carries into cudnnDebug_t. The handle's stream and device are copied when the
// call starts: the handle itself may be gone by the time the message is written (cudnnDestroy), so
// `handle` is only ever reported, never read.
struct LogContext {
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    cudnnHandle_t handle = nullptr;
    cudaStream_t stream = nullptr;
    int device = -1;
};

// Delivers one message (may span lines) at `severity`, if enabled.
void log_message(cudnnSeverity_t severity, const std::string &message, const LogContext &context = {});

// Shorthands for messages with no API-call context.
void log_error(const std::string &message);
void log_warning(const std::string &message);
void log_info(const std::string &message);

}  // namespace librednn
