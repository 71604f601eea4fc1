// The filter descriptor (cudnnFilterDescriptor_t): data type, format and dims (K, C, spatial...).
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
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

// Number of scalar weights (product of dims).
int64_t filter_element_count(const cudnnFilterStruct &filter);

// Sets `filter` after checking cuDNN's rules; `dim_names` names the dims in reasons ({"k", "c", "h",
// "w"} for the 4d setter, nullptr for "filterDimA[i]"). On failure `filter` is left as it was.
Status set_filter(cudnnFilterStruct *filter, cudnnDataType_t type, cudnnTensorFormat_t format, int nb_dims,
                  const int *dims, const char *const *dim_names = nullptr);

// BAD_PARAM naming `name` when `filter` is NULL or was never set.
Status require_filter_set(const cudnnFilterStruct *filter, const char *name);

// "KCRS", "KRSC", "KCRS_VECT_C" (letters for the spatial dims: S, RS, TRS, ...).
std::string filter_layout_name(const cudnnFilterStruct &filter);

// "float KCRS 64x3x7x7", for log lines and problem strings.
std::string filter_to_string(const cudnnFilterStruct &filter);

}  // namespace librednn
