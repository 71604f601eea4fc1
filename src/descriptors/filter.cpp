// Filter descriptor rules (formats KCRS, KRSC, KCRS_VECT_C), sizes and describe().
#include "descriptors/filter.hpp"

#include "core/data_type.hpp"
#include "descriptors/describe.hpp"
#include "descriptors/tensor.hpp"

#include <string>

namespace librednn {

namespace {

const char *const kFilterDimANames[CUDNN_DIM_MAX] = {"filterDimA[0]", "filterDimA[1]", "filterDimA[2]",
                                                     "filterDimA[3]", "filterDimA[4]", "filterDimA[5]",
                                                     "filterDimA[6]", "filterDimA[7]"};

// Letters of the spatial dims, the last ones used first: W is S, H is R, D is T, ...
constexpr char kSpatialLetters[] = "UVQTRS";

std::string join(const int *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

}  // namespace

Status set_filter(cudnnFilterStruct *filter, cudnnDataType_t type, cudnnTensorFormat_t format, int nb_dims,
                  const int *dims, const char *const *dim_names) {
    const char *const *names = dim_names ? dim_names : kFilterDimANames;
    LIBREDNN_CHECK(check_data_type(type, "dataType"));
    LIBREDNN_CHECK(check_tensor_format(format, "format"));
    LIBREDNN_CHECK(check_nb_dims(nb_dims, "nbDims"));
    LIBREDNN_CHECK(check_positive_dims(nb_dims, dims, names));
    LIBREDNN_CHECK(check_vector_layout(format, type, dims[1], "format", "dataType", names[1]));

    // cuDNN states its 2 Giga-element limit for tensors; filters are held to it as well, so that every
    // weight has an int offset.
    const int vector = vector_count(type);
    int64_t elements = 1;
    for (int i = 0; i < nb_dims && elements <= kMaxTensorSpanElements; ++i) {
        elements *= i == 1 ? dims[i] / vector : dims[i];
    }
    if (elements > kMaxTensorSpanElements) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the filter %s has more than 2 Giga-elements (%lld)",
                    join(dims, nb_dims).c_str(), static_cast<long long>(kMaxTensorSpanElements));
    }

    cudnnFilterStruct result;
    result.is_set = true;
    result.data_type = type;
    result.format = format;
    result.nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) result.dims[i] = dims[i];
    *filter = result;
    return CUDNN_STATUS_SUCCESS;
}

Status require_filter_set(const cudnnFilterStruct *filter, const char *name) {
    if (filter == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "%s is NULL", name);
    if (!filter->is_set) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s has not been set (call cudnnSetFilter4dDescriptor or cudnnSetFilterNdDescriptor first)", name);
    }
    return CUDNN_STATUS_SUCCESS;
}

int64_t filter_element_count(const cudnnFilterStruct &filter) {
    if (!filter.is_set) return 0;
    int64_t count = 1;
    for (int i = 0; i < filter.nb_dims; ++i) count *= filter.dims[i];  // bounded by set_filter
    return count;
}

size_t filter_size_in_bytes(const cudnnFilterStruct &filter) {
    if (!filter.is_set) return 0;
    // data_type_size is the bytes of one vector for vectorised types, and C counts scalars.
    return static_cast<size_t>(filter_element_count(filter) / vector_count(filter.data_type)) *
           data_type_size(filter.data_type);
}

std::string filter_layout_name(const cudnnFilterStruct &filter) {
    const int spatial_count = filter.nb_dims > 2 ? filter.nb_dims - 2 : 0;
    const std::string spatial(kSpatialLetters + (sizeof kSpatialLetters - 1) - spatial_count);
    switch (filter.format) {
        case CUDNN_TENSOR_NCHW: return "KC" + spatial;
        case CUDNN_TENSOR_NHWC: return "K" + spatial + "C";
        case CUDNN_TENSOR_NCHW_VECT_C: return "KC" + spatial + "_VECT_C";
    }
    return "?";
}

std::string filter_to_string(const cudnnFilterStruct &filter) {
    if (!filter.is_set) return "unset";
    return std::string(data_type_short_name(filter.data_type)) + " " + filter_layout_name(filter) + " " +
           join(filter.dims, filter.nb_dims);
}

namespace api {

std::string describe(const cudnnFilterStruct *desc) {
    if (desc == nullptr) return "NULL";
    if (!desc->is_set) return "FilterDescriptor{unset}";
    return "FilterDescriptor{" + filter_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
