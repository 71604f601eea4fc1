// The tensor descriptor (cudnnTensorDescriptor_t): data type, dims and strides, with cuDNN's rules.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>

struct cudnnTensorStruct {
    bool is_set = false;  // false until a Set*Descriptor call succeeds
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    cudnnTensorFormat_t format = CUDNN_TENSOR_NCHW;  // the format it was set with (NCHW for strided setters,
                                                     // NCHW_VECT_C whenever the data type is vectorised)
    int nb_dims = 0;
    int dims[CUDNN_DIM_MAX] = {};     // in NCHW order (N, C, then spatial), as cuDNN reports them
    int strides[CUDNN_DIM_MAX] = {};  // in elements (vectors for vectorised types), NCHW order
};

namespace librednn {

// cuDNN's limit on the elements a tensor may span, padding between dimensions included
// ("2 Giga-elements of type datatype").
constexpr int64_t kMaxTensorSpanElements = 2147483647;

// How an entry point names its dimension and stride arguments in rejection reasons: {"n", "c", "h",
// "w"} for the 4d setters, {"dimA[0]", "dimA[1]", ...} for the Nd ones. Each table holds
// CUDNN_DIM_MAX names; `strides` may be nullptr where the function takes none.
struct ArgumentNames {
    const char *const *dims;
    const char *const *strides;
};
extern const ArgumentNames kTensorNdNames;  // dimA[i], strideA[i]
extern const ArgumentNames kTensor4dNames;  // n, c, h, w and nStride, cStride, hStride, wStride

// Bytes a tensor with this descriptor spans in memory (cudnnGetTensorSizeInBytes).
size_t tensor_size_in_bytes(const cudnnTensorStruct &tensor);

// Number of elements (product of dims).
int64_t tensor_element_count(const cudnnTensorStruct &tensor);

// Elements (vectors for vectorised types) from the first to the last one addressed, inclusive.
int64_t tensor_span_elements(const cudnnTensorStruct &tensor);

// Sets `tensor` from dims and strides after checking cuDNN's rules (for the Nd and 4dEx setters).
// On failure `tensor` is left as it was.
Status set_tensor_strided(cudnnTensorStruct *tensor, cudnnDataType_t type, int nb_dims, const int *dims,
                          const int *strides);
Status set_tensor_strided(cudnnTensorStruct *tensor, cudnnDataType_t type, int nb_dims, const int *dims,
                          const int *strides, const ArgumentNames &names);

// Sets `tensor` from dims in a packed format (NCHW, NHWC or NCHW_VECT_C), computing the strides.
// On failure `tensor` is left as it was.
Status set_tensor_packed(cudnnTensorStruct *tensor, cudnnTensorFormat_t format, cudnnDataType_t type, int nb_dims,
                         const int *dims);
Status set_tensor_packed(cudnnTensorStruct *tensor, cudnnTensorFormat_t format, cudnnDataType_t type, int nb_dims,
                         const int *dims, const ArgumentNames &names);

// BAD_PARAM naming `name` when `tensor` is NULL or was never set; for every function taking a tensor.
Status require_tensor_set(const cudnnTensorStruct *tensor, const char *name);

// The descriptor of the per-channel (1xCx1x1, 1xCx1x1x1) or per-activation (1xCxHxW, 1xCxDxHxW)
// parameters of a normalisation of `x`: packed, float for half and bfloat16 data, else x's type.
// `x` must be a set 4d or 5d tensor; `x_name` names it in the reason.
Status derive_normalization_tensor(cudnnTensorStruct *derived, const cudnnTensorStruct &x, bool per_channel,
                                   const char *x_name);

// Checks shared by tensors and filters. Each names the argument in its reason.
Status check_data_type(cudnnDataType_t type, const char *name);
Status check_tensor_format(cudnnTensorFormat_t format, const char *name);
// nbDims of an Nd setter: BAD_PARAM below 3, NOT_SUPPORTED above CUDNN_DIM_MAX.
Status check_nb_dims(int nb_dims, const char *name);
// Every dim positive.
Status check_positive_dims(int nb_dims, const int *dims, const char *const *names);
// NCHW_VECT_C goes with the vectorised types (INT8x4, UINT8x4, INT8x32) and they with it; C (the
// number of scalar channels) must then be a multiple of the vector size.
Status check_vector_layout(cudnnTensorFormat_t format, cudnnDataType_t type, int channels, const char *format_name,
                           const char *type_name, const char *channels_name);

// "NCHW", "NHWC", "NCHW_VECT_C"; "?" for other values.
const char *tensor_format_short_name(cudnnTensorFormat_t format);

// "float 2x3x4x5 strides 60x20x5x1", for log lines and problem strings.
std::string tensor_to_string(const cudnnTensorStruct &tensor);

}  // namespace librednn
