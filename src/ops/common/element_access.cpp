// Scalar loads and stores of every supported data type through double.
#include "ops/common/element_access.hpp"

#include "core/numeric_types.hpp"

namespace librednn {

cudnnDataType_t scalar_type_of(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_INT8x32: return CUDNN_DATA_INT8;
        case CUDNN_DATA_UINT8x4: return CUDNN_DATA_UINT8;
        default: return type;
    }
}

size_t scalar_size_of(cudnnDataType_t type) {
    switch (scalar_type_of(type)) {
        case CUDNN_DATA_DOUBLE:
        case CUDNN_DATA_INT64: return 8;
        case CUDNN_DATA_FLOAT:
        case CUDNN_DATA_INT32: return 4;
        case CUDNN_DATA_HALF:
        case CUDNN_DATA_BFLOAT16: return 2;
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_BOOLEAN: return 1;
        default: return 0;
    }
}

bool element_access_supports(cudnnDataType_t type) { return scalar_size_of(type) != 0; }

double load_scalar(const void *base, cudnnDataType_t type, int64_t offset) {
    switch (scalar_type_of(type)) {
        case CUDNN_DATA_FLOAT: return static_cast<const float *>(base)[offset];
        case CUDNN_DATA_DOUBLE: return static_cast<const double *>(base)[offset];
        case CUDNN_DATA_HALF: return half_to_float(static_cast<const Half *>(base)[offset]);
        case CUDNN_DATA_BFLOAT16: return bfloat16_to_float(static_cast<const BFloat16 *>(base)[offset]);
        case CUDNN_DATA_INT8: return static_cast<const int8_t *>(base)[offset];
        case CUDNN_DATA_UINT8: return static_cast<const uint8_t *>(base)[offset];
        case CUDNN_DATA_INT32: return static_cast<const int32_t *>(base)[offset];
        case CUDNN_DATA_INT64: return static_cast<double>(static_cast<const int64_t *>(base)[offset]);
        case CUDNN_DATA_BOOLEAN: return static_cast<const uint8_t *>(base)[offset] != 0 ? 1.0 : 0.0;
        default: return 0.0;
    }
}

void store_scalar(void *base, cudnnDataType_t type, int64_t offset, double value) {
    switch (scalar_type_of(type)) {
        case CUDNN_DATA_FLOAT: static_cast<float *>(base)[offset] = static_cast<float>(value); break;
        case CUDNN_DATA_DOUBLE: static_cast<double *>(base)[offset] = value; break;
        case CUDNN_DATA_HALF: static_cast<Half *>(base)[offset] = half_from_double(value); break;
        case CUDNN_DATA_BFLOAT16: static_cast<BFloat16 *>(base)[offset] = bfloat16_from_double(value); break;
        case CUDNN_DATA_INT8: static_cast<int8_t *>(base)[offset] = saturate_to_integer<int8_t>(value); break;
        case CUDNN_DATA_UINT8: static_cast<uint8_t *>(base)[offset] = saturate_to_integer<uint8_t>(value); break;
        case CUDNN_DATA_INT32: static_cast<int32_t *>(base)[offset] = saturate_to_integer<int32_t>(value); break;
        case CUDNN_DATA_INT64: static_cast<int64_t *>(base)[offset] = saturate_to_integer<int64_t>(value); break;
        case CUDNN_DATA_BOOLEAN: static_cast<uint8_t *>(base)[offset] = value != 0.0 ? 1 : 0; break;
        default: break;
    }
}

}  // namespace librednn
