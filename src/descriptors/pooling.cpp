// The pooling descriptor's rules, the pooling output shape, and the descriptor's one-line description.
#include "descriptors/pooling.hpp"

#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"
#include "descriptors/enum_check.hpp"
#include "descriptors/tensor.hpp"

#include <cstdint>
#include <string>

namespace librednn {

namespace {

// "windowDimA[1]" for the Nd setter, "windowWidth" for the 2d one.
std::string argument_name(PoolingSetter setter, const char *const two_d_names[2], const char *array_name, int index) {
    if (setter == PoolingSetter::two_d) return two_d_names[index];
    return std::string(array_name) + "[" + std::to_string(index) + "]";
}

const char *const kWindowNames[2] = {"windowHeight", "windowWidth"};
const char *const kPaddingNames[2] = {"verticalPadding", "horizontalPadding"};
const char *const kStrideNames[2] = {"verticalStride", "horizontalStride"};

std::string join(const int *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

}  // namespace

Status set_pooling(cudnnPoolingStruct *desc, PoolingSetter setter, cudnnPoolingMode_t mode,
                   cudnnNanPropagation_t nan_opt, int nb_dims, const int *window, const int *padding,
                   const int *stride) {
    LIBREDNN_CHECK(check_enum(mode, "mode", "cudnnPoolingMode_t"));
    LIBREDNN_CHECK(check_enum(nan_opt, "maxpoolingNanOpt", "cudnnNanPropagation_t"));
    if (nb_dims < 1) return fail(CUDNN_STATUS_BAD_PARAM, "nbDims is %d, must be at least 1", nb_dims);
    if (nb_dims > cudnnPoolingStruct::kMaxSpatialDims) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "nbDims is %d, at most %d (CUDNN_DIM_MAX-2) spatial dims are supported",
                    nb_dims, cudnnPoolingStruct::kMaxSpatialDims);
    }
    for (int i = 0; i < nb_dims; ++i) {
        if (window[i] <= 0) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be positive",
                        argument_name(setter, kWindowNames, "windowDimA", i).c_str(), window[i]);
        }
        if (padding[i] < 0) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must not be negative",
                        argument_name(setter, kPaddingNames, "paddingA", i).c_str(), padding[i]);
        }
        if (stride[i] <= 0) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be positive",
                        argument_name(setter, kStrideNames, "strideA", i).c_str(), stride[i]);
        }
    }
    *desc = cudnnPoolingStruct{};
    desc->mode = mode;
    desc->nan_opt = nan_opt;
    desc->nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) {
        desc->window[i] = window[i];
        desc->padding[i] = padding[i];
        desc->stride[i] = stride[i];
    }
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_pooling_set(const cudnnPoolingStruct &desc, const char *name) {
    if (desc.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM,
                "%s has not been set (call cudnnSetPooling2dDescriptor or cudnnSetPoolingNdDescriptor first)", name);
}

Status pooling_output_dims(const cudnnPoolingStruct &pooling, const cudnnTensorStruct &input, int *output_dims) {
    LIBREDNN_CHECK(require_pooling_set(pooling, "poolingDesc"));
    LIBREDNN_CHECK(require_tensor_set(&input, "inputTensorDesc"));
    if (input.nb_dims != pooling.nb_dims + 2) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "inputTensorDesc has %d dims, a %d-D pooling needs %d (N, C and %d spatial dims)", input.nb_dims,
                    pooling.nb_dims, pooling.nb_dims + 2, pooling.nb_dims);
    }
    output_dims[0] = input.dims[0];
    output_dims[1] = input.dims[1];
    for (int i = 0; i < pooling.nb_dims; ++i) {
        const int64_t padded = int64_t{input.dims[i + 2]} + 2 * int64_t{pooling.padding[i]};
        if (padded < pooling.window[i]) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "spatial dim %d of inputTensorDesc is %d, with padding %d it is smaller than the window %d", i,
                        input.dims[i + 2], pooling.padding[i], pooling.window[i]);
        }
        const int64_t output = 1 + (padded - pooling.window[i]) / pooling.stride[i];
        if (output > INT32_MAX) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "spatial dim %d of the pooling output would be %lld, more than an int holds", i,
                        static_cast<long long>(output));
        }
        output_dims[i + 2] = static_cast<int>(output);
    }
    return CUDNN_STATUS_SUCCESS;
}

std::string pooling_to_string(const cudnnPoolingStruct &desc) {
    if (!desc.is_set) return "unset";
    return std::string(enum_name(desc.mode)) + ", " + enum_name(desc.nan_opt) + ", window " +
           join(desc.window, desc.nb_dims) + ", padding " + join(desc.padding, desc.nb_dims) + ", stride " +
           join(desc.stride, desc.nb_dims);
}

namespace api {

std::string describe(const cudnnPoolingStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "PoolingDescriptor{" + pooling_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
