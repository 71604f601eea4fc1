// What every exported C function is built from: the guard that keeps C++ exceptions inside, the
// trace of the call (name, arguments, status) and the NOT_SUPPORTED answer.
#pragma once

// Every cudnn* function this library defines is exported; everything else stays hidden (we build
// with -fvisibility=hidden and a version script per library).
#pragma GCC visibility push(default)
#include <cudnn.h>
#include <cudnn_backend.h>
#pragma GCC visibility pop

#include "core/enum_names.gen.hpp"
#include "core/logging.hpp"
#include "core/status.hpp"
#include "descriptors/describe.hpp"

#include <algorithm>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <type_traits>

namespace librednn::api {

// How argument values read in a trace.
std::string format_value(const char *text);
std::string format_value(bool value);
std::string format_value(double value);
std::string format_value(long long value);
std::string format_value(unsigned long long value);
std::string format_value(const void *pointer);
std::string format_value(cudnnHandle_t handle);

template <class T>
std::string format_value(T value) {
    if constexpr (std::is_enum_v<T>) {
        const char *name = enum_name(value);
        return std::string(name ? name : "?") + " (" + std::to_string(static_cast<long long>(value)) + ")";
    } else if constexpr (std::is_floating_point_v<T>) {
        return format_value(static_cast<double>(value));
    } else if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
        return format_value(static_cast<long long>(value));
    } else if constexpr (std::is_integral_v<T>) {
        return format_value(static_cast<unsigned long long>(value));
    } else if constexpr (std::is_pointer_v<T>) {
        using Pointee = std::remove_cv_t<std::remove_pointer_t<T>>;
        if constexpr (has_describe<Pointee>::value) {
            return describe(static_cast<const Pointee *>(value));
        } else {
            return format_value(static_cast<const void *>(value));
        }
    } else {
        static_assert(sizeof(T) == 0, "no trace format for this argument type");
    }
}

// One API call being traced. Arguments are formatted only when info logging is on.
class Call {
public:
    explicit Call(const char *function);

    template <class T>
    Call &arg(const char *name, const T &value) {
        if (tracing_) add(name, format_value(value));
        return *this;
    }

    // An input array of `count` values, of which the function itself reads at most `readable` (its
    // largest valid count: CUDNN_DIM_MAX for dims, the caller's declared size for a length array).
    // The trace is written before validation, so it must never read past what a valid call passes.
    template <class T>
    Call &array(const char *name, const T *values, long long count, long long readable) {
        if (!tracing_) return *this;
        if (values == nullptr) return add(name, "NULL"), *this;
        const long long shown = std::min({count, readable, kMaxTracedEntries});
        std::string text = "[";
        for (long long i = 0; i < shown; ++i) text += (i ? "," : "") + format_value(values[i]);
        if (count > shown) text += ",...";
        add(name, text + "]");
        return *this;
    }

    // The handle the call runs on, for cudnnDebug_t (also traced as an argument). Its stream and
    // device are read now, while the handle surely exists: cudnnDestroy frees it before finish().
    Call &handle(cudnnHandle_t handle);

    const char *function() const { return function_; }
    void finish(Status status);

private:
    static constexpr long long kMaxTracedEntries = 64;

    void add(const char *name, const std::string &value);

    const char *function_;
    bool tracing_;
    LogContext context_;
    std::string arguments_;
};

// Runs `body(call)` behind the C boundary: std::bad_alloc becomes CUDNN_STATUS_ALLOC_FAILED, any
// other exception CUDNN_STATUS_INTERNAL_ERROR; the call is traced at info level and a failure is
// logged at error level with the reason fail() recorded.
template <class Body>
Status call(const char *function, Body &&body) {
    Call trace(function);
    clear_failure_reason();
    Status status = CUDNN_STATUS_INTERNAL_ERROR;
    try {
        status = body(trace);
    } catch (const std::bad_alloc &) {
        status = fail(CUDNN_STATUS_ALLOC_FAILED, "out of host memory");
    } catch (const std::exception &e) {
        status = fail(CUDNN_STATUS_INTERNAL_ERROR, "internal error: %s", e.what());
    } catch (...) {
        status = fail(CUDNN_STATUS_INTERNAL_ERROR, "internal error: unknown exception");
    }
    trace.finish(status);
    return status;
}

// The answer of a function LibreDNN does not implement yet (see docs/SUPPORT.md).
Status not_supported(const char *function, const char *why = nullptr);

// A NULL pointer argument: CUDNN_STATUS_BAD_PARAM with a reason naming it.
Status null_argument(const char *name);

}  // namespace librednn::api

// Inside a call body: fails with CUDNN_STATUS_BAD_PARAM when a pointer argument is NULL.
#define LIBREDNN_REQUIRE_NOT_NULL(pointer)                                         \
    do {                                                                           \
        if ((pointer) == nullptr) return ::librednn::api::null_argument(#pointer); \
    } while (0)
