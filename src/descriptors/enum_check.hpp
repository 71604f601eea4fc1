// The one check every descriptor setter makes on its enum arguments: is the value one the enum defines?
#pragma once

#include "core/enum_names.gen.hpp"
#include "core/status.hpp"

namespace librednn {

// CUDNN_STATUS_BAD_PARAM ("mode is 9, not a cudnnActivationMode_t value") unless `value` is a
// constant of its enum type; `name` is the argument's name, `type` the enum's.
template <class Enum>
Status check_enum(Enum value, const char *name, const char *type) {
    if (enum_name(value) != nullptr) return CUDNN_STATUS_SUCCESS;
    // cuDNN's enums are int-sized; printed as the int the caller passed (-1, not 4294967295).
    return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, not a %s value", name, static_cast<int>(value), type);
}

}  // namespace librednn
