// Data-type facts the op families' rules share.
#pragma once

#include "core/enum_names.gen.hpp"

#include <cudnn.h>

namespace librednn {

// float, double, half and bfloat16: the types the floating-point ops (activation, softmax, ...) take.
inline bool is_floating_point(cudnnDataType_t type) {
    return type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE || type == CUDNN_DATA_HALF ||
           type == CUDNN_DATA_BFLOAT16;
}

// "CUDNN_DATA_HALF" for reasons; "?" for values that are not data types.
inline const char *type_name(cudnnDataType_t type) {
    const char *name = enum_name(type);
    return name ? name : "?";
}

}  // namespace librednn
