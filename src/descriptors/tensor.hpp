// The tensor descriptor (cudnnTensorDescriptor_t): data type, dims and strides, with cuDNN's rules.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>

struct cudnnTensorStruct {
    bool is_set = false;                            // false until a Set*Descriptor call succeeds
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    cudnnTensorFormat_t format = CUDNN_TENSOR_NCHW;  // the format it was set with (NCHW for strided setters)
    int nb_dims = 0;
    int dims[CUDNN_DIM_MAX] = {};     // in NCHW order (N, C, then spatial), as cuDNN reports them
    int strides[CUDNN_DIM_MAX] = {};  // in elements (vectors for vectorised types), NCHW order
};

namespace librednn {

// Bytes a tensor with this descriptor spans in memory (cudnnGetTensorSizeInBytes).
size_t tensor_size_in_bytes(const cudnnTensorStruct &tensor);

// Number of elements (product of dims).
int64_t tensor_element_count(const cudnnTensorStruct &tensor);

// Sets `tensor` from dims and strides after checking cuDNN's rules (for the Nd and 4dEx setters).
Status set_tensor_strided(cudnnTensorStruct *tensor, cudnnDataType_t type, int nb_dims, const int *dims,
                          const int *strides);

// Sets `tensor` from dims in a packed format (NCHW, NHWC or NCHW_VECT_C), computing the strides.
Status set_tensor_packed(cudnnTensorStruct *tensor, cudnnTensorFormat_t format, cudnnDataType_t type, int nb_dims,
                         const int *dims);

// "float 2x3x4x5 strides 60x20x5x1", for log lines and problem strings.
std::string tensor_to_string(const cudnnTensorStruct &tensor);

}  // namespace librednn
