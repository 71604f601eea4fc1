// The spatial transformer descriptor's rules and its one-line description.
#include "descriptors/spatial_transformer.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"
#include "descriptors/enum_check.hpp"
#include "descriptors/tensor.hpp"

namespace librednn {

Status set_spatial_transformer(cudnnSpatialTransformerStruct *desc, cudnnSamplerType_t sampler,
                               cudnnDataType_t data_type, int nb_dims, const int *dims) {
    LIBREDNN_CHECK(check_enum(sampler, "samplerType", "cudnnSamplerType_t"));
    LIBREDNN_CHECK(check_data_type(data_type, "dataType"));
    if (nb_dims < 1 || nb_dims > CUDNN_DIM_MAX) {
        return fail(CUDNN_STATUS_BAD_PARAM, "nbDims is %d, must be between 1 and %d (CUDNN_DIM_MAX)", nb_dims,
                    CUDNN_DIM_MAX);
    }
    if (nb_dims != kSpatialTransformerDims) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "nbDims is %d, only 4-D (NCHW) spatial transformers are supported",
                    nb_dims);
    }
    LIBREDNN_CHECK(check_positive_dims(nb_dims, dims, kTensorNdNames.dims));
    *desc = cudnnSpatialTransformerStruct{};
    desc->sampler = sampler;
    desc->data_type = data_type;
    desc->nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) desc->dims[i] = dims[i];
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

std::string spatial_transformer_to_string(const cudnnSpatialTransformerStruct &desc) {
    if (!desc.is_set) return "unset";
    std::string text = std::string(enum_name(desc.sampler)) + ", " + data_type_short_name(desc.data_type) + ", ";
    for (int i = 0; i < desc.nb_dims; ++i) text += (i ? "x" : "") + std::to_string(desc.dims[i]);
    return text;
}

namespace api {

std::string describe(const cudnnSpatialTransformerStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "SpatialTransformerDescriptor{" + spatial_transformer_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
