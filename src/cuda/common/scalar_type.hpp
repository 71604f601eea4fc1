// The scalar element types the tensor kernels read and write, and their mapping from cudnnDataType_t.
#pragma once

#include <cudnn.h>

#include <cstddef>
#include <cstdint>

namespace librednn::cuda {

// One scalar as memory holds it. Vectorised cuDNN types (INT8x4, UINT8x4, INT8x32) are their scalars:
// the kernels see NCHW_VECT_C tensors as plain strided tensors with the channel dim split.
enum class ScalarType : int { f32, f64, f16, bf16, i8, u8, i32 };

// False for types the kernels do not handle (int64, boolean, fp8).
inline bool scalar_type_of(cudnnDataType_t type, ScalarType *scalar) {
    switch (type) {
        case CUDNN_DATA_FLOAT: *scalar = ScalarType::f32; return true;
        case CUDNN_DATA_DOUBLE: *scalar = ScalarType::f64; return true;
        case CUDNN_DATA_HALF: *scalar = ScalarType::f16; return true;
        case CUDNN_DATA_BFLOAT16: *scalar = ScalarType::bf16; return true;
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_INT8x32: *scalar = ScalarType::i8; return true;
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_UINT8x4: *scalar = ScalarType::u8; return true;
        case CUDNN_DATA_INT32: *scalar = ScalarType::i32; return true;
        default: return false;
    }
}

inline size_t scalar_size(ScalarType type) {
    switch (type) {
        case ScalarType::f64: return 8;
        case ScalarType::f32:
        case ScalarType::i32: return 4;
        case ScalarType::f16:
        case ScalarType::bf16: return 2;
        case ScalarType::i8:
        case ScalarType::u8: return 1;
    }
    return 0;
}

inline bool is_floating(ScalarType type) {
    return type == ScalarType::f32 || type == ScalarType::f64 || type == ScalarType::f16 || type == ScalarType::bf16;
}

// The bits of `value` stored as one scalar of `type` (rounded to nearest even; integers saturate and
// take NaN as 0), in the low bytes of the result.
uint64_t scalar_bits_of(double value, ScalarType type);

}  // namespace librednn::cuda
