// cudnnCreate/DestroyPoolingDescriptor, the 2-D and N-D setters and getters, and the pooling output shape.
#include "descriptors/pooling.hpp"
#include "api/entry.hpp"
#include "descriptors/tensor.hpp"

#include <algorithm>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreatePoolingDescriptor(cudnnPoolingDescriptor_t *poolingDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", static_cast<const void *>(poolingDesc));
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        *poolingDesc = new cudnnPoolingStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetPooling2dDescriptor(cudnnPoolingDescriptor_t poolingDesc, cudnnPoolingMode_t mode,
                                                      cudnnNanPropagation_t maxpoolingNanOpt, int windowHeight,
                                                      int windowWidth, int verticalPadding, int horizontalPadding,
                                                      int verticalStride, int horizontalStride) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc)
            .arg("mode", mode)
            .arg("maxpoolingNanOpt", maxpoolingNanOpt)
            .arg("windowHeight", windowHeight)
            .arg("windowWidth", windowWidth)
            .arg("verticalPadding", verticalPadding)
            .arg("horizontalPadding", horizontalPadding)
            .arg("verticalStride", verticalStride)
            .arg("horizontalStride", horizontalStride);
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        const int window[] = {windowHeight, windowWidth};
        const int padding[] = {verticalPadding, horizontalPadding};
        const int stride[] = {verticalStride, horizontalStride};
        return librednn::set_pooling(poolingDesc, librednn::PoolingSetter::two_d, mode, maxpoolingNanOpt, 2, window,
                                     padding, stride);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetPooling2dDescriptor(const cudnnPoolingDescriptor_t poolingDesc,
                                                      cudnnPoolingMode_t *mode, cudnnNanPropagation_t *maxpoolingNanOpt,
                                                      int *windowHeight, int *windowWidth, int *verticalPadding,
                                                      int *horizontalPadding, int *verticalStride,
                                                      int *horizontalStride) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc)
            .arg("mode", static_cast<const void *>(mode))
            .arg("maxpoolingNanOpt", static_cast<const void *>(maxpoolingNanOpt))
            .arg("windowHeight", static_cast<const void *>(windowHeight))
            .arg("windowWidth", static_cast<const void *>(windowWidth))
            .arg("verticalPadding", static_cast<const void *>(verticalPadding))
            .arg("horizontalPadding", static_cast<const void *>(horizontalPadding))
            .arg("verticalStride", static_cast<const void *>(verticalStride))
            .arg("horizontalStride", static_cast<const void *>(horizontalStride));
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        LIBREDNN_REQUIRE_NOT_NULL(mode);
        LIBREDNN_REQUIRE_NOT_NULL(maxpoolingNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(windowHeight);
        LIBREDNN_REQUIRE_NOT_NULL(windowWidth);
        LIBREDNN_REQUIRE_NOT_NULL(verticalPadding);
        LIBREDNN_REQUIRE_NOT_NULL(horizontalPadding);
        LIBREDNN_REQUIRE_NOT_NULL(verticalStride);
        LIBREDNN_REQUIRE_NOT_NULL(horizontalStride);
        LIBREDNN_CHECK(librednn::require_pooling_set(*poolingDesc, "poolingDesc"));
        if (poolingDesc->nb_dims != 2) {
            return librednn::fail(
                CUDNN_STATUS_BAD_PARAM,
                "poolingDesc is a %d-D pooling, this function reads 2-D ones (use cudnnGetPoolingNdDescriptor)",
                poolingDesc->nb_dims);
        }
        *mode = poolingDesc->mode;
        *maxpoolingNanOpt = poolingDesc->nan_opt;
        *windowHeight = poolingDesc->window[0];
        *windowWidth = poolingDesc->window[1];
        *verticalPadding = poolingDesc->padding[0];
        *horizontalPadding = poolingDesc->padding[1];
        *verticalStride = poolingDesc->stride[0];
        *horizontalStride = poolingDesc->stride[1];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetPoolingNdDescriptor(cudnnPoolingDescriptor_t poolingDesc,
                                                      const cudnnPoolingMode_t mode,
                                                      const cudnnNanPropagation_t maxpoolingNanOpt, int nbDims,
                                                      const int windowDimA[], const int paddingA[],
                                                      const int strideA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc)
            .arg("mode", mode)
            .arg("maxpoolingNanOpt", maxpoolingNanOpt)
            .arg("nbDims", nbDims)
            .array("windowDimA", windowDimA, nbDims, cudnnPoolingStruct::kMaxSpatialDims)
            .array("paddingA", paddingA, nbDims, cudnnPoolingStruct::kMaxSpatialDims)
            .array("strideA", strideA, nbDims, cudnnPoolingStruct::kMaxSpatialDims);
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        LIBREDNN_REQUIRE_NOT_NULL(windowDimA);
        LIBREDNN_REQUIRE_NOT_NULL(paddingA);
        LIBREDNN_REQUIRE_NOT_NULL(strideA);
        return librednn::set_pooling(poolingDesc, librednn::PoolingSetter::n_d, mode, maxpoolingNanOpt, nbDims,
                                     windowDimA, paddingA, strideA);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetPoolingNdDescriptor(const cudnnPoolingDescriptor_t poolingDesc, int nbDimsRequested,
                                                      cudnnPoolingMode_t *mode, cudnnNanPropagation_t *maxpoolingNanOpt,
                                                      int *nbDims, int windowDimA[], int paddingA[], int strideA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc)
            .arg("nbDimsRequested", nbDimsRequested)
            .arg("mode", static_cast<const void *>(mode))
            .arg("maxpoolingNanOpt", static_cast<const void *>(maxpoolingNanOpt))
            .arg("nbDims", static_cast<const void *>(nbDims))
            .arg("windowDimA", static_cast<const void *>(windowDimA))
            .arg("paddingA", static_cast<const void *>(paddingA))
            .arg("strideA", static_cast<const void *>(strideA));
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        LIBREDNN_REQUIRE_NOT_NULL(mode);
        LIBREDNN_REQUIRE_NOT_NULL(maxpoolingNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(nbDims);
        if (nbDimsRequested < 0) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "nbDimsRequested is %d, must not be negative",
                                  nbDimsRequested);
        }
        if (nbDimsRequested > 0) {
            LIBREDNN_REQUIRE_NOT_NULL(windowDimA);
            LIBREDNN_REQUIRE_NOT_NULL(paddingA);
            LIBREDNN_REQUIRE_NOT_NULL(strideA);
        }
        LIBREDNN_CHECK(librednn::require_pooling_set(*poolingDesc, "poolingDesc"));
        *mode = poolingDesc->mode;
        *maxpoolingNanOpt = poolingDesc->nan_opt;
        *nbDims = poolingDesc->nb_dims;
        // As cudnnGetTensorNdDescriptor does: the arrays hold nbDimsRequested values, so write at most that many.
        const int count = std::min(nbDimsRequested, poolingDesc->nb_dims);
        for (int i = 0; i < count; ++i) {
            windowDimA[i] = poolingDesc->window[i];
            paddingA[i] = poolingDesc->padding[i];
            strideA[i] = poolingDesc->stride[i];
        }
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetPoolingNdForwardOutputDim(const cudnnPoolingDescriptor_t poolingDesc,
                                                            const cudnnTensorDescriptor_t inputTensorDesc, int nbDims,
                                                            int outputTensorDimA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc)
            .arg("inputTensorDesc", inputTensorDesc)
            .arg("nbDims", nbDims)
            .arg("outputTensorDimA", static_cast<const void *>(outputTensorDimA));
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        LIBREDNN_REQUIRE_NOT_NULL(inputTensorDesc);
        LIBREDNN_REQUIRE_NOT_NULL(outputTensorDimA);
        LIBREDNN_CHECK(librednn::require_pooling_set(*poolingDesc, "poolingDesc"));
        if (inputTensorDesc->is_set && nbDims != inputTensorDesc->nb_dims) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "nbDims is %d, inputTensorDesc has %d dims", nbDims,
                                  inputTensorDesc->nb_dims);
        }
        int dims[CUDNN_DIM_MAX];
        LIBREDNN_CHECK(librednn::pooling_output_dims(*poolingDesc, *inputTensorDesc, dims));
        std::copy(dims, dims + nbDims, outputTensorDimA);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetPooling2dForwardOutputDim(const cudnnPoolingDescriptor_t poolingDesc,
                                                            const cudnnTensorDescriptor_t inputTensorDesc, int *n,
                                                            int *c, int *h, int *w) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc)
            .arg("inputTensorDesc", inputTensorDesc)
            .arg("n", static_cast<const void *>(n))
            .arg("c", static_cast<const void *>(c))
            .arg("h", static_cast<const void *>(h))
            .arg("w", static_cast<const void *>(w));
        LIBREDNN_REQUIRE_NOT_NULL(poolingDesc);
        LIBREDNN_REQUIRE_NOT_NULL(inputTensorDesc);
        LIBREDNN_REQUIRE_NOT_NULL(n);
        LIBREDNN_REQUIRE_NOT_NULL(c);
        LIBREDNN_REQUIRE_NOT_NULL(h);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_CHECK(librednn::require_pooling_set(*poolingDesc, "poolingDesc"));
        if (poolingDesc->nb_dims != 2) {
            return librednn::fail(
                CUDNN_STATUS_BAD_PARAM,
                "poolingDesc is a %d-D pooling, this function needs a 2-D one (use cudnnGetPoolingNdForwardOutputDim)",
                poolingDesc->nb_dims);
        }
        int dims[CUDNN_DIM_MAX];
        LIBREDNN_CHECK(librednn::pooling_output_dims(*poolingDesc, *inputTensorDesc, dims));
        *n = dims[0];
        *c = dims[1];
        *h = dims[2];
        *w = dims[3];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyPoolingDescriptor(cudnnPoolingDescriptor_t poolingDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("poolingDesc", poolingDesc);
        delete poolingDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}
