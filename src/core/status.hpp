// Status codes inside LibreDNN and the one-sentence reason that goes with a failure.
#pragma once

#include <cudnn.h>

#include <string>

namespace librednn {

using Status = cudnnStatus_t;

// Records why the current API call fails (the API guard logs it) and returns `status`.
// The message says what was wrong and what was expected, in words a user can act on.
Status fail(Status status, const char *format, ...) __attribute__((format(printf, 2, 3)));

// The reason recorded by the last fail() on this thread, and clearing it.
const std::string &last_failure_reason();
void clear_failure_reason();

// cuDNN's name for a status ("CUDNN_STATUS_BAD_PARAM"); "CUDNN_UNKNOWN_STATUS" for other values.
const char *status_name(Status status);

}  // namespace librednn

// Returns from the enclosing function when `expr` is not CUDNN_STATUS_SUCCESS.
#define LIBREDNN_CHECK(expr)                                                   \
    do {                                                                       \
        const ::librednn::Status librednn_status_ = (expr);                    \
        if (librednn_status_ != CUDNN_STATUS_SUCCESS) return librednn_status_; \
    } while (0)
