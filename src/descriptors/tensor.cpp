// Tensor descriptor rules: valid types, formats, dims and strides; packed strides; sizes; describe().
#include "descriptors/tensor.hpp"

#include "core/checked_math.hpp"
#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <string>

namespace librednn {

namespace {

const char *const kDimANames[CUDNN_DIM_MAX] = {"dimA[0]", "dimA[1]", "dimA[2]", "dimA[3]",
                                               "dimA[4]", "dimA[5]", "dimA[6]", "dimA[7]"};
const char *const kStrideANames[CUDNN_DIM_MAX] = {"strideA[0]", "strideA[1]", "strideA[2]", "strideA[3]",
                                                  "strideA[4]", "strideA[5]", "strideA[6]", "strideA[7]"};
const char *const kNchwNames[CUDNN_DIM_MAX] = {"n", "c", "h", "w", "?", "?", "?", "?"};
const char *const kNchwStrideNames[CUDNN_DIM_MAX] = {"nStride", "cStride", "hStride", "wStride", "?", "?", "?", "?"};

// Span in elements of dims/strides, with C counted in vectors for vectorised types.
int64_t span_of(int nb_dims, const int *dims, const int *strides, int vector) {
    int64_t last = 0;
    for (int i = 0; i < nb_dims; ++i) {
        const int64_t extent = i == 1 ? dims[i] / vector : dims[i];
        last = saturating_add(last, saturating_mul(extent - 1, strides[i]));
    }
    return saturating_add(last, 1);
}

const char *data_type_name(cudnnDataType_t type) {
    const char *name = enum_name(type);
    return name ? name : "?";
}

std::string join(const int *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

// Elements addressed, with C counted in vectors for vectorised types (the unit of span_of).
int64_t count_of(int nb_dims, const int *dims, int vector) {
    int64_t count = 1;
    for (int i = 0; i < nb_dims; ++i) count = saturating_mul(count, i == 1 ? dims[i] / vector : dims[i]);
    return count;
}

// cuDNN's 2 Giga-element limit holds for the memory a tensor spans and for the elements it has: with
// overlapping strides (a stride smaller than the extent inside it) the second is far larger, and every
// loop over the elements must stay within int64 and finish.
Status refuse_over_limit(int64_t span, int64_t count, int nb_dims, const int *dims) {
    if (count > kMaxTensorSpanElements) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the tensor %s has %s elements, more than cuDNN's limit of 2 Giga-elements (%lld)",
                    join(dims, nb_dims).c_str(), count == INT64_MAX ? "more than 2^63" : std::to_string(count).c_str(),
                    static_cast<long long>(kMaxTensorSpanElements));
    }
    if (span > kMaxTensorSpanElements) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the tensor %s spans %lld elements, more than cuDNN's limit of 2 Giga-elements (%lld)",
                    join(dims, nb_dims).c_str(), static_cast<long long>(span),
                    static_cast<long long>(kMaxTensorSpanElements));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

const ArgumentNames kTensorNdNames = {kDimANames, kStrideANames};
const ArgumentNames kTensor4dNames = {kNchwNames, kNchwStrideNames};

const char *tensor_format_short_name(cudnnTensorFormat_t format) {
    switch (format) {
        case CUDNN_TENSOR_NCHW: return "NCHW";
        case CUDNN_TENSOR_NHWC: return "NHWC";
        case CUDNN_TENSOR_NCHW_VECT_C: return "NCHW_VECT_C";
    }
    return "?";
}

Status check_data_type(cudnnDataType_t type, const char *name) {
    if (!is_valid_data_type(type)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, not a cudnnDataType_t value", name, static_cast<int>(type));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_tensor_format(cudnnTensorFormat_t format, const char *name) {
    if (enum_name(format) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %d, must be CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NHWC or CUDNN_TENSOR_NCHW_VECT_C", name,
                    static_cast<int>(format));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_nb_dims(int nb_dims, const char *name) {
    if (nb_dims > CUDNN_DIM_MAX) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s is %d, must be between 3 and %d (CUDNN_DIM_MAX)", name, nb_dims,
                    CUDNN_DIM_MAX);
    }
    if (nb_dims < 3) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be between 3 and %d (CUDNN_DIM_MAX)", name, nb_dims,
                    CUDNN_DIM_MAX);
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_positive_dims(int nb_dims, const int *dims, const char *const *names) {
    for (int i = 0; i < nb_dims; ++i) {
        if (dims[i] <= 0) return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be positive", names[i], dims[i]);
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_vector_layout(cudnnTensorFormat_t format, cudnnDataType_t type, int channels, const char *format_name,
                           const char *type_name, const char *channels_name) {
    const int vector = vector_count(type);
    if (format == CUDNN_TENSOR_NCHW_VECT_C && vector == 1) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s CUDNN_TENSOR_NCHW_VECT_C needs a vectorised %s (CUDNN_DATA_INT8x4, CUDNN_DATA_UINT8x4 or "
                    "CUDNN_DATA_INT8x32), got %s",
                    format_name, type_name, data_type_name(type));
    }
    if (format != CUDNN_TENSOR_NCHW_VECT_C && vector > 1) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s %s is only supported with format CUDNN_TENSOR_NCHW_VECT_C, got %s",
                    type_name, data_type_name(type), enum_name(format) ? enum_name(format) : "?");
    }
    if (vector > 1 && channels % vector != 0) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be a multiple of %d (the vector size of %s)", channels_name,
                    channels, vector, data_type_name(type));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status set_tensor_strided(cudnnTensorStruct *tensor, cudnnDataType_t type, int nb_dims, const int *dims,
                          const int *strides) {
    return set_tensor_strided(tensor, type, nb_dims, dims, strides, kTensorNdNames);
}

Status set_tensor_strided(cudnnTensorStruct *tensor, cudnnDataType_t type, int nb_dims, const int *dims,
                          const int *strides, const ArgumentNames &names) {
    LIBREDNN_CHECK(check_data_type(type, "dataType"));
    LIBREDNN_CHECK(check_nb_dims(nb_dims, "nbDims"));
    LIBREDNN_CHECK(check_positive_dims(nb_dims, dims, names.dims));
    for (int i = 0; i < nb_dims; ++i) {
        if (strides[i] <= 0) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be positive", names.strides[i], strides[i]);
        }
    }
    // Strides carry no layout, so a vectorised type is what makes the tensor NCHW_VECT_C.
    const int vector = vector_count(type);
    const cudnnTensorFormat_t format = vector > 1 ? CUDNN_TENSOR_NCHW_VECT_C : CUDNN_TENSOR_NCHW;
    LIBREDNN_CHECK(check_vector_layout(format, type, dims[1], "format", "dataType", names.dims[1]));
    LIBREDNN_CHECK(
        refuse_over_limit(span_of(nb_dims, dims, strides, vector), count_of(nb_dims, dims, vector), nb_dims, dims));

    cudnnTensorStruct result;
    result.is_set = true;
    result.data_type = type;
    result.format = format;
    result.nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) {
        result.dims[i] = dims[i];
        result.strides[i] = strides[i];
    }
    *tensor = result;
    return CUDNN_STATUS_SUCCESS;
}

Status set_tensor_packed(cudnnTensorStruct *tensor, cudnnTensorFormat_t format, cudnnDataType_t type, int nb_dims,
                         const int *dims) {
    return set_tensor_packed(tensor, format, type, nb_dims, dims, kTensorNdNames);
}

Status set_tensor_packed(cudnnTensorStruct *tensor, cudnnTensorFormat_t format, cudnnDataType_t type, int nb_dims,
                         const int *dims, const ArgumentNames &names) {
    LIBREDNN_CHECK(check_tensor_format(format, "format"));
    LIBREDNN_CHECK(check_data_type(type, "dataType"));
    LIBREDNN_CHECK(check_nb_dims(nb_dims, "nbDims"));
    LIBREDNN_CHECK(check_positive_dims(nb_dims, dims, names.dims));
    LIBREDNN_CHECK(check_vector_layout(format, type, dims[1], "format", "dataType", names.dims[1]));

    // Packed strides, computed in 64 bits: a tensor over the limit must be refused, not wrapped.
    const int vector = vector_count(type);
    int64_t extent[CUDNN_DIM_MAX] = {};
    for (int i = 0; i < nb_dims; ++i) extent[i] = i == 1 ? dims[i] / vector : dims[i];
    int64_t stride[CUDNN_DIM_MAX] = {};
    if (format == CUDNN_TENSOR_NHWC) {
        // Channels innermost, then the spatial dims from last to first, then the batch.
        stride[1] = 1;
        int64_t next = extent[1];
        for (int i = nb_dims - 1; i >= 2; --i) {
            stride[i] = next;
            next = saturating_mul(next, extent[i]);
        }
        stride[0] = next;
    } else {
        int64_t next = 1;
        for (int i = nb_dims - 1; i >= 0; --i) {
            stride[i] = next;
            next = saturating_mul(next, extent[i]);
        }
    }
    int64_t span = 1;
    for (int i = 0; i < nb_dims; ++i) span = saturating_add(span, saturating_mul(extent[i] - 1, stride[i]));
    LIBREDNN_CHECK(refuse_over_limit(span, count_of(nb_dims, dims, vector), nb_dims, dims));

    cudnnTensorStruct result;
    result.is_set = true;
    result.data_type = type;
    result.format = format;
    result.nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) {
        result.dims[i] = dims[i];
        result.strides[i] = static_cast<int>(stride[i]);  // below the span, so within int
    }
    *tensor = result;
    return CUDNN_STATUS_SUCCESS;
}

Status require_tensor_set(const cudnnTensorStruct *tensor, const char *name) {
    if (tensor == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "%s is NULL", name);
    if (!tensor->is_set) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s has not been set (call cudnnSetTensor4dDescriptor or cudnnSetTensorNdDescriptor first)", name);
    }
    return CUDNN_STATUS_SUCCESS;
}

Status derive_normalization_tensor(cudnnTensorStruct *derived, const cudnnTensorStruct &x, bool per_channel,
                                   const char *x_name) {
    if (x.nb_dims != 4 && x.nb_dims != 5) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has %d dims (%s), only 4d and 5d tensors are supported", x_name,
                    x.nb_dims, join(x.dims, x.nb_dims).c_str());
    }
    int dims[CUDNN_DIM_MAX];
    dims[0] = 1;
    dims[1] = x.dims[1];
    for (int i = 2; i < x.nb_dims; ++i) dims[i] = per_channel ? 1 : x.dims[i];
    // Parameters of half and bfloat16 data are kept in float.
    const cudnnDataType_t type =
        x.data_type == CUDNN_DATA_HALF || x.data_type == CUDNN_DATA_BFLOAT16 ? CUDNN_DATA_FLOAT : x.data_type;
    const cudnnTensorFormat_t format = vector_count(type) > 1 ? CUDNN_TENSOR_NCHW_VECT_C : CUDNN_TENSOR_NCHW;
    return set_tensor_packed(derived, format, type, x.nb_dims, dims);
}

int64_t tensor_element_count(const cudnnTensorStruct &tensor) {
    if (!tensor.is_set) return 0;
    int64_t count = 1;
    for (int i = 0; i < tensor.nb_dims; ++i) count = saturating_mul(count, tensor.dims[i]);
    return count;
}

int64_t tensor_span_elements(const cudnnTensorStruct &tensor) {
    if (!tensor.is_set) return 0;
    return span_of(tensor.nb_dims, tensor.dims, tensor.strides, vector_count(tensor.data_type));
}

size_t tensor_size_in_bytes(const cudnnTensorStruct &tensor) {
    return static_cast<size_t>(tensor_span_elements(tensor)) * data_type_size(tensor.data_type);
}

std::string tensor_to_string(const cudnnTensorStruct &tensor) {
    if (!tensor.is_set) return "unset";
    return std::string(data_type_short_name(tensor.data_type)) + " " + join(tensor.dims, tensor.nb_dims) + " strides " +
           join(tensor.strides, tensor.nb_dims);
}

namespace api {

std::string describe(const cudnnTensorStruct *desc) {
    if (desc == nullptr) return "NULL";
    if (!desc->is_set) return "TensorDescriptor{unset}";
    return std::string("TensorDescriptor{") + tensor_to_string(*desc) + " " + tensor_format_short_name(desc->format) +
           "}";
}

}  // namespace api

}  // namespace librednn
