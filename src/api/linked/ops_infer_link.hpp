// What a sub-library other than ops_infer takes from the ops_infer it is linked to.
#pragma once

#include "core/status.hpp"

namespace librednn::api {

// CUDNN_STATUS_SUCCESS when `library` (e.g. "cnn_infer") and the loaded ops_infer come from the
// same build, else CUDNN_STATUS_VERSION_MISMATCH with a reason naming both build ids.
Status check_same_build_as_ops_infer(const char *library);

}  // namespace librednn::api
