// Data type sizes and names.
#include "core/data_type.hpp"

namespace librednn {

bool is_valid_data_type(cudnnDataType_t type) { return data_type_size(type) != 0; }

size_t data_type_size(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_FLOAT: return 4;
        case CUDNN_DATA_DOUBLE: return 8;
        case CUDNN_DATA_HALF: return 2;
        case CUDNN_DATA_INT8: return 1;
        case CUDNN_DATA_INT32: return 4;
        case CUDNN_DATA_INT8x4: return 4;
        case CUDNN_DATA_UINT8: return 1;
        case CUDNN_DATA_UINT8x4: return 4;
        case CUDNN_DATA_INT8x32: return 32;
        case CUDNN_DATA_BFLOAT16: return 2;
        case CUDNN_DATA_INT64: return 8;
        case CUDNN_DATA_BOOLEAN: return 1;
        case CUDNN_DATA_FP8_E4M3: return 1;
        case CUDNN_DATA_FP8_E5M2: return 1;
        case CUDNN_DATA_FAST_FLOAT_FOR_FP8: return 4;
    }
    return 0;
}

int vector_count(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_UINT8x4: return 4;
        case CUDNN_DATA_INT8x32: return 32;
        default: return 1;
    }
}

const char *data_type_short_name(cudnnDataType_t type) {
    switch (type) {
        case CUDNN_DATA_FLOAT: return "float";
        case CUDNN_DATA_DOUBLE: return "double";
        case CUDNN_DATA_HALF: return "half";
        case CUDNN_DATA_INT8: return "int8";
        case CUDNN_DATA_INT32: return "int32";
        case CUDNN_DATA_INT8x4: return "int8x4";
        case CUDNN_DATA_UINT8: return "uint8";
        case CUDNN_DATA_UINT8x4: return "uint8x4";
        case CUDNN_DATA_INT8x32: return "int8x32";
        case CUDNN_DATA_BFLOAT16: return "bfloat16";
        case CUDNN_DATA_INT64: return "int64";
        case CUDNN_DATA_BOOLEAN: return "bool";
        case CUDNN_DATA_FP8_E4M3: return "fp8e4m3";
        case CUDNN_DATA_FP8_E5M2: return "fp8e5m2";
        case CUDNN_DATA_FAST_FLOAT_FOR_FP8: return "fastfloat_fp8";
    }
    return "unknown";
}

}  // namespace librednn
