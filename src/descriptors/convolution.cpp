// Rules of the convolution descriptor, its forward output shape and its one-line description.
#include "descriptors/convolution.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <climits>
#include <cstdint>
#include <string>

namespace librednn {

namespace {

const char *mode_short_name(cudnnConvolutionMode_t mode) {
    return mode == CUDNN_CONVOLUTION ? "convolution" : "cross_correlation";
}

// "padA[1]" for the Nd setter, "pad_w" for the 2d one.
std::string argument_name(ConvolutionSetter setter, const char *const two_d_names[2], const char *array_name,
                          int index) {
    if (setter == ConvolutionSetter::two_d) return two_d_names[index];
    return std::string(array_name) + "[" + std::to_string(index) + "]";
}

std::string join_dims(const int *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

}  // namespace

Status set_convolution(cudnnConvolutionStruct *conv, ConvolutionSetter setter, int spatial_dims, const int *pads,
                       const int *strides, const int *dilations, cudnnConvolutionMode_t mode,
                       cudnnDataType_t compute_type) {
    static const char *const kPadNames[2] = {"pad_h", "pad_w"};
    static const char *const kStrideNames[2] = {"u", "v"};
    static const char *const kDilationNames[2] = {"dilation_h", "dilation_w"};
    if (spatial_dims < 1)
        return fail(CUDNN_STATUS_BAD_PARAM, "arrayLength is %d, must be between 1 and %d (CUDNN_DIM_MAX - 2)",
                    spatial_dims, kMaxConvolutionSpatialDims);
    if (spatial_dims > kMaxConvolutionSpatialDims)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "arrayLength is %d, at most %d (CUDNN_DIM_MAX - 2) is supported",
                    spatial_dims, kMaxConvolutionSpatialDims);
    for (int i = 0; i < spatial_dims; ++i) {
        if (pads[i] < 0)
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be >= 0",
                        argument_name(setter, kPadNames, "padA", i).c_str(), pads[i]);
    }
    for (int i = 0; i < spatial_dims; ++i) {
        if (strides[i] <= 0)
            return fail(CUDNN_STATUS_BAD_PARAM, "%s (stride) is %d, must be > 0",
                        argument_name(setter, kStrideNames, "filterStrideA", i).c_str(), strides[i]);
    }
    for (int i = 0; i < spatial_dims; ++i) {
        if (dilations[i] <= 0)
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be > 0",
                        argument_name(setter, kDilationNames, "dilationA", i).c_str(), dilations[i]);
    }
    if (enum_name(mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "mode is %d, not a cudnnConvolutionMode_t (CUDNN_CONVOLUTION or CUDNN_CROSS_CORRELATION)",
                    static_cast<int>(mode));
    if (!is_valid_data_type(compute_type))
        return fail(CUDNN_STATUS_BAD_PARAM, "computeType is %d, not a cudnnDataType_t", static_cast<int>(compute_type));

    conv->spatial_dims = spatial_dims;
    for (int i = 0; i < kMaxConvolutionSpatialDims; ++i) {
        const bool used = i < spatial_dims;
        conv->pads[i] = used ? pads[i] : 0;
        conv->strides[i] = used ? strides[i] : 0;
        conv->dilations[i] = used ? dilations[i] : 0;
    }
    conv->mode = mode;
    conv->compute_type = compute_type;
    conv->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status check_math_type(cudnnMathType_t math_type) {
    if (enum_name(math_type) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "mathType is %d, not a cudnnMathType_t (CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, "
                    "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION or CUDNN_FMA_MATH)",
                    static_cast<int>(math_type));
    return CUDNN_STATUS_SUCCESS;
}

Status check_group_count(int group_count) {
    if (group_count < 1) return fail(CUDNN_STATUS_BAD_PARAM, "groupCount is %d, must be >= 1", group_count);
    return CUDNN_STATUS_SUCCESS;
}

Status check_reorder_type(cudnnReorderType_t reorder_type) {
    if (enum_name(reorder_type) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "reorderType is %d, not a cudnnReorderType_t (CUDNN_DEFAULT_REORDER or CUDNN_NO_REORDER)",
                    static_cast<int>(reorder_type));
    return CUDNN_STATUS_SUCCESS;
}

Status require_convolution_set(const cudnnConvolutionStruct &conv, const char *name) {
    if (!conv.is_set)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s has not been set (call cudnnSetConvolution2dDescriptor or cudnnSetConvolutionNdDescriptor "
                    "first)",
                    name);
    return CUDNN_STATUS_SUCCESS;
}

Status convolution_forward_output_dims(const cudnnConvolutionStruct &conv, const cudnnTensorStruct &input,
                                       const cudnnFilterStruct &filter, int *output_dims) {
    LIBREDNN_CHECK(require_convolution_set(conv, "convDesc"));
    if (!input.is_set) return fail(CUDNN_STATUS_BAD_PARAM, "inputTensorDesc has not been set");
    if (!filter.is_set) return fail(CUDNN_STATUS_BAD_PARAM, "filterDesc has not been set");
    if (filter.nb_dims != input.nb_dims)
        return fail(CUDNN_STATUS_BAD_PARAM, "filterDesc has %d dims but inputTensorDesc has %d; they must agree",
                    filter.nb_dims, input.nb_dims);
    if (conv.spatial_dims != input.nb_dims - 2)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "convDesc has %d spatial dims but inputTensorDesc has %d dims; a %d-d convolution needs %d-d "
                    "tensors",
                    conv.spatial_dims, input.nb_dims, conv.spatial_dims, conv.spatial_dims + 2);
    const int64_t input_channels = input.dims[1];
    const int64_t filter_channels = filter.dims[1];
    if (input_channels != filter_channels * conv.group_count)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "inputTensorDesc has %lld channels but filterDesc has %lld input channels x groupCount %d = %lld; "
                    "they must agree",
                    static_cast<long long>(input_channels), static_cast<long long>(filter_channels), conv.group_count,
                    static_cast<long long>(filter_channels * conv.group_count));

    output_dims[0] = input.dims[0];
    output_dims[1] = filter.dims[0];
    for (int i = 0; i < conv.spatial_dims; ++i) {
        const int64_t in = input.dims[i + 2];
        const int64_t padded = in + 2 * static_cast<int64_t>(conv.pads[i]);
        const int64_t extent = (static_cast<int64_t>(filter.dims[i + 2]) - 1) * conv.dilations[i] + 1;
        if (extent > padded)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "along spatial dim %d the dilated filter spans %lld ((filter %d - 1) x dilation %d + 1), "
                        "more than the padded input %lld (input %lld + 2 x pad %d)",
                        i, static_cast<long long>(extent), filter.dims[i + 2], conv.dilations[i],
                        static_cast<long long>(padded), static_cast<long long>(in), conv.pads[i]);
        const int64_t out = 1 + (padded - extent) / conv.strides[i];
        if (out > INT_MAX)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "along spatial dim %d the output would have %lld positions (input %lld + 2 x pad %d), more "
                        "than a tensor dim can hold (%d)",
                        i, static_cast<long long>(out), static_cast<long long>(in), conv.pads[i], INT_MAX);
        output_dims[i + 2] = static_cast<int>(out);
    }
    return CUDNN_STATUS_SUCCESS;
}

std::string convolution_to_string(const cudnnConvolutionStruct &conv) {
    std::string text;
    if (conv.is_set) {
        const int n = conv.spatial_dims;
        text = std::string(mode_short_name(conv.mode)) + " pad " + join_dims(conv.pads, n) + " stride " +
               join_dims(conv.strides, n) + " dilation " + join_dims(conv.dilations, n) + " compute " +
               data_type_short_name(conv.compute_type);
    } else {
        text = "unset";
    }
    const char *math = enum_name(conv.math_type);
    text += std::string(" math ") + (math ? math : "?") + " groups " + std::to_string(conv.group_count);
    if (conv.reorder_type == CUDNN_NO_REORDER) text += " no_reorder";
    return text;
}

namespace api {

std::string describe(const cudnnConvolutionStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "ConvolutionDescriptor{" + convolution_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
