// The call guard's tracing and the NOT_SUPPORTED answer.
#include "api/entry.hpp"

#include "core/handle.hpp"

#include <cinttypes>
#include <cstdio>

namespace librednn::api {

std::string format_value(const char *text) { return text ? std::string("\"") + text + "\"" : "NULL"; }
std::string format_value(bool value) { return value ? "true" : "false"; }

std::string format_value(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return buffer;
}

std::string format_value(long long value) { return std::to_string(value); }
std::string format_value(unsigned long long value) { return std::to_string(value); }

std::string format_value(const void *pointer) {
    if (pointer == nullptr) return "NULL";
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(pointer));
    return buffer;
}

std::string format_value(cudnnHandle_t handle) {
    if (handle == nullptr) return "NULL";
    return format_value(static_cast<const void *>(handle)) + " {backend=" + backend_name(handle->backend) +
           ", device=" + std::to_string(handle->device) +
           ", stream=" + format_value(static_cast<const void *>(handle->stream)) + "}";
}

Call::Call(const char *function) : function_(function), tracing_(log_enabled(CUDNN_SEV_INFO)) {}

void Call::add(const char *name, const std::string &value) {
    arguments_ += "\n    ";
    arguments_ += name;
    arguments_ += ": ";
    arguments_ += value;
}

Call &Call::handle(cudnnHandle_t handle) {
    context_.handle = handle;
    if (handle != nullptr) {
        context_.stream = handle->stream;
        context_.device = handle->device;
    }
    return arg("handle", handle);
}

void Call::finish(Status status) {
    LogContext context = context_;
    context.status = status;
    if (status != CUDNN_STATUS_SUCCESS && log_enabled(CUDNN_SEV_ERROR)) {
        const std::string &reason = last_failure_reason();
        log_message(CUDNN_SEV_ERROR,
                    std::string("LibreDNN (v") + std::to_string(CUDNN_VERSION) + ") function " + function_ +
                        "() failed: " + status_name(status) + (reason.empty() ? "" : ": " + reason),
                    context);
    }
    if (tracing_) {
        log_message(CUDNN_SEV_INFO,
                    std::string("LibreDNN (v") + std::to_string(CUDNN_VERSION) + ") function " + function_ +
                        "() called:" + arguments_ + "\n    returned: " + status_name(status),
                    context);
    }
}

Status not_supported(const char *function, const char *why) {
    return call(function, [&](Call &) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s",
                    why ? why : "LibreDNN does not implement this function yet (see docs/SUPPORT.md)");
    });
}

Status null_argument(const char *name) { return fail(CUDNN_STATUS_BAD_PARAM, "%s is NULL", name); }

}  // namespace librednn::api
