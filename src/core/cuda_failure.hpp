// The status of a failed CUDA runtime call, with the CUDA error in the logged reason.
#pragma once

#include "core/cuda_runtime.hpp"
#include "core/status.hpp"

#if LIBREDNN_HAVE_CUDA
namespace librednn {

// Fails the call for `error`, returned by a CUDA runtime call doing `what` (printf-style: "allocating
// 256 bytes of pooling argmax"): CUDNN_STATUS_ALLOC_FAILED when the device is out of memory,
// CUDNN_STATUS_EXECUTION_FAILED for anything else (a failed launch or copy, or a sticky error that an
// earlier kernel left in the context). The reason logged is "<what> failed: <CUDA's error string>
// (<error name>)". A non-sticky error is cleared, so that the next call starts clean.
Status cuda_failure(cudaError_t error, const char *what, ...) __attribute__((format(printf, 2, 3)));

}  // namespace librednn
#endif
