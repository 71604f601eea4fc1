// The convolution descriptor's create/destroy/set/get functions and the forward output shape queries.
#include "api/entry.hpp"
#include "descriptors/convolution.hpp"

#include <algorithm>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateConvolutionDescriptor(cudnnConvolutionDescriptor_t *convDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", static_cast<const void *>(convDesc));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        *convDesc = new cudnnConvolutionStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyConvolutionDescriptor(cudnnConvolutionDescriptor_t convDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc);
        delete convDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionMathType(cudnnConvolutionDescriptor_t convDesc, cudnnMathType_t mathType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("mathType", mathType);
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_CHECK(librednn::check_math_type(mathType));
        convDesc->math_type = mathType;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionMathType(cudnnConvolutionDescriptor_t convDesc,
                                                      cudnnMathType_t *mathType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("mathType", static_cast<const void *>(mathType));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_REQUIRE_NOT_NULL(mathType);
        *mathType = convDesc->math_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionGroupCount(cudnnConvolutionDescriptor_t convDesc, int groupCount) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("groupCount", groupCount);
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_CHECK(librednn::check_group_count(groupCount));
        convDesc->group_count = groupCount;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionGroupCount(cudnnConvolutionDescriptor_t convDesc, int *groupCount) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("groupCount", static_cast<const void *>(groupCount));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_REQUIRE_NOT_NULL(groupCount);
        *groupCount = convDesc->group_count;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionReorderType(cudnnConvolutionDescriptor_t convDesc,
                                                         cudnnReorderType_t reorderType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("reorderType", reorderType);
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_CHECK(librednn::check_reorder_type(reorderType));
        convDesc->reorder_type = reorderType;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionReorderType(cudnnConvolutionDescriptor_t convDesc,
                                                         cudnnReorderType_t *reorderType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("reorderType", static_cast<const void *>(reorderType));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_REQUIRE_NOT_NULL(reorderType);
        *reorderType = convDesc->reorder_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolution2dDescriptor(cudnnConvolutionDescriptor_t convDesc, int pad_h, int pad_w,
                                                          int u, int v, int dilation_h, int dilation_w,
                                                          cudnnConvolutionMode_t mode, cudnnDataType_t computeType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("pad_h", pad_h).arg("pad_w", pad_w).arg("u", u).arg("v", v);
        call.arg("dilation_h", dilation_h).arg("dilation_w", dilation_w).arg("mode", mode);
        call.arg("computeType", computeType);
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        const int pads[2] = {pad_h, pad_w}, strides[2] = {u, v}, dilations[2] = {dilation_h, dilation_w};
        return librednn::set_convolution(convDesc, librednn::ConvolutionSetter::two_d, 2, pads, strides, dilations,
                                         mode, computeType);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolution2dDescriptor(const cudnnConvolutionDescriptor_t convDesc, int *pad_h,
                                                          int *pad_w, int *u, int *v, int *dilation_h, int *dilation_w,
                                                          cudnnConvolutionMode_t *mode, cudnnDataType_t *computeType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("pad_h", static_cast<const void *>(pad_h));
        call.arg("pad_w", static_cast<const void *>(pad_w)).arg("u", static_cast<const void *>(u));
        call.arg("v", static_cast<const void *>(v)).arg("dilation_h", static_cast<const void *>(dilation_h));
        call.arg("dilation_w", static_cast<const void *>(dilation_w)).arg("mode", static_cast<const void *>(mode));
        call.arg("computeType", static_cast<const void *>(computeType));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_REQUIRE_NOT_NULL(pad_h);
        LIBREDNN_REQUIRE_NOT_NULL(pad_w);
        LIBREDNN_REQUIRE_NOT_NULL(u);
        LIBREDNN_REQUIRE_NOT_NULL(v);
        LIBREDNN_REQUIRE_NOT_NULL(dilation_h);
        LIBREDNN_REQUIRE_NOT_NULL(dilation_w);
        LIBREDNN_REQUIRE_NOT_NULL(mode);
        LIBREDNN_REQUIRE_NOT_NULL(computeType);
        LIBREDNN_CHECK(librednn::require_convolution_set(*convDesc, "convDesc"));
        if (convDesc->spatial_dims != 2)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "convDesc holds a %d-d convolution; cudnnGetConvolution2dDescriptor reads only 2-d "
                                  "ones (use cudnnGetConvolutionNdDescriptor)",
                                  convDesc->spatial_dims);
        *pad_h = convDesc->pads[0];
        *pad_w = convDesc->pads[1];
        *u = convDesc->strides[0];
        *v = convDesc->strides[1];
        *dilation_h = convDesc->dilations[0];
        *dilation_w = convDesc->dilations[1];
        *mode = convDesc->mode;
        *computeType = convDesc->compute_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetConvolutionNdDescriptor(cudnnConvolutionDescriptor_t convDesc, int arrayLength,
                                                          const int padA[], const int filterStrideA[],
                                                          const int dilationA[], cudnnConvolutionMode_t mode,
                                                          cudnnDataType_t computeType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("arrayLength", arrayLength);
        const int readable = librednn::kMaxConvolutionSpatialDims;
        call.array("padA", padA, arrayLength, readable).array("filterStrideA", filterStrideA, arrayLength, readable);
        call.array("dilationA", dilationA, arrayLength, readable).arg("mode", mode).arg("computeType", computeType);
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        if (arrayLength > 0) {
            LIBREDNN_REQUIRE_NOT_NULL(padA);
            LIBREDNN_REQUIRE_NOT_NULL(filterStrideA);
            LIBREDNN_REQUIRE_NOT_NULL(dilationA);
        }
        return librednn::set_convolution(convDesc, librednn::ConvolutionSetter::n_d, arrayLength, padA, filterStrideA,
                                         dilationA, mode, computeType);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionNdDescriptor(const cudnnConvolutionDescriptor_t convDesc,
                                                          int arrayLengthRequested, int *arrayLength, int padA[],
                                                          int strideA[], int dilationA[], cudnnConvolutionMode_t *mode,
                                                          cudnnDataType_t *computeType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("arrayLengthRequested", arrayLengthRequested);
        call.arg("arrayLength", static_cast<const void *>(arrayLength)).arg("padA", static_cast<const void *>(padA));
        call.arg("strideA", static_cast<const void *>(strideA)).arg("dilationA", static_cast<const void *>(dilationA));
        call.arg("mode", static_cast<const void *>(mode)).arg("computeType", static_cast<const void *>(computeType));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        if (arrayLengthRequested < 0)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "arrayLengthRequested is %d, must be >= 0",
                                  arrayLengthRequested);
        if (arrayLengthRequested > librednn::kMaxConvolutionSpatialDims)
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                  "arrayLengthRequested is %d, at most %d (CUDNN_DIM_MAX - 2) is supported",
                                  arrayLengthRequested, librednn::kMaxConvolutionSpatialDims);
        LIBREDNN_REQUIRE_NOT_NULL(arrayLength);
        if (arrayLengthRequested > 0) {
            LIBREDNN_REQUIRE_NOT_NULL(padA);
            LIBREDNN_REQUIRE_NOT_NULL(strideA);
            LIBREDNN_REQUIRE_NOT_NULL(dilationA);
        }
        LIBREDNN_REQUIRE_NOT_NULL(mode);
        LIBREDNN_REQUIRE_NOT_NULL(computeType);
        LIBREDNN_CHECK(librednn::require_convolution_set(*convDesc, "convDesc"));
        // cuDNN reports the full rank and fills as many entries as were asked for.
        *arrayLength = convDesc->spatial_dims;
        const int count = std::min(arrayLengthRequested, convDesc->spatial_dims);
        for (int i = 0; i < count; ++i) {
            padA[i] = convDesc->pads[i];
            strideA[i] = convDesc->strides[i];
            dilationA[i] = convDesc->dilations[i];
        }
        *mode = convDesc->mode;
        *computeType = convDesc->compute_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolution2dForwardOutputDim(const cudnnConvolutionDescriptor_t convDesc,
                                                                const cudnnTensorDescriptor_t inputTensorDesc,
                                                                const cudnnFilterDescriptor_t filterDesc, int *n,
                                                                int *c, int *h, int *w) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("inputTensorDesc", inputTensorDesc).arg("filterDesc", filterDesc);
        call.arg("n", static_cast<const void *>(n)).arg("c", static_cast<const void *>(c));
        call.arg("h", static_cast<const void *>(h)).arg("w", static_cast<const void *>(w));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_REQUIRE_NOT_NULL(inputTensorDesc);
        LIBREDNN_REQUIRE_NOT_NULL(filterDesc);
        LIBREDNN_REQUIRE_NOT_NULL(n);
        LIBREDNN_REQUIRE_NOT_NULL(c);
        LIBREDNN_REQUIRE_NOT_NULL(h);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        if (inputTensorDesc->is_set && inputTensorDesc->nb_dims != 4)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "inputTensorDesc has %d dims, cudnnGetConvolution2dForwardOutputDim needs 4 "
                                  "(use cudnnGetConvolutionNdForwardOutputDim)",
                                  inputTensorDesc->nb_dims);
        int dims[4] = {};
        LIBREDNN_CHECK(librednn::convolution_forward_output_dims(*convDesc, *inputTensorDesc, *filterDesc, dims));
        *n = dims[0];
        *c = dims[1];
        *h = dims[2];
        *w = dims[3];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionNdForwardOutputDim(const cudnnConvolutionDescriptor_t convDesc,
                                                                const cudnnTensorDescriptor_t inputTensorDesc,
                                                                const cudnnFilterDescriptor_t filterDesc, int nbDims,
                                                                int tensorOuputDimA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("convDesc", convDesc).arg("inputTensorDesc", inputTensorDesc).arg("filterDesc", filterDesc);
        call.arg("nbDims", nbDims).arg("tensorOuputDimA", static_cast<const void *>(tensorOuputDimA));
        LIBREDNN_REQUIRE_NOT_NULL(convDesc);
        LIBREDNN_REQUIRE_NOT_NULL(inputTensorDesc);
        LIBREDNN_REQUIRE_NOT_NULL(filterDesc);
        LIBREDNN_REQUIRE_NOT_NULL(tensorOuputDimA);
        int dims[CUDNN_DIM_MAX] = {};
        LIBREDNN_CHECK(librednn::convolution_forward_output_dims(*convDesc, *inputTensorDesc, *filterDesc, dims));
        if (nbDims != inputTensorDesc->nb_dims)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "nbDims is %d but the output of a %d-d convolution has %d dims (those of "
                                  "inputTensorDesc)",
                                  nbDims, convDesc->spatial_dims, inputTensorDesc->nb_dims);
        std::copy(dims, dims + nbDims, tensorOuputDimA);
        return CUDNN_STATUS_SUCCESS;
    });
}
