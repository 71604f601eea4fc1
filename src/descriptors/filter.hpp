// The filter descriptor (cudnnFilterDescriptor_t): data type, format and dims (K, C, spatial...).
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <string>

struct cudnnFilterStruct {
    bool is_set = false;
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    cudnnTensorFormat_t format = CUDNN_TENSOR_NCHW;
    int nb_dims = 0;
    int dims[CUDNN_DIM_MAX] = {};  // K, C, then spatial dims, whatever the format
};

namespace librednn {

// Bytes the filter occupies (cudnnGetFilterSizeInBytes).
size_t filter_size_in_bytes(const cudnnFilterStruct &filter);

// "float KCRS 64x3x7x7", for log lines and problem strings.
std::string filter_to_string(const cudnnFilterStruct &filter);

}  // namespace librednn
