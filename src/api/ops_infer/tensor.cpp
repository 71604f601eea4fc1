// cudnnCreate/Set/Get/DestroyTensorDescriptor and cudnnGetTensorSizeInBytes.
#include "descriptors/tensor.hpp"
#include "api/entry.hpp"

#include <algorithm>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateTensorDescriptor(cudnnTensorDescriptor_t *tensorDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", static_cast<const void *>(tensorDesc));
        LIBREDNN_REQUIRE_NOT_NULL(tensorDesc);
        *tensorDesc = new cudnnTensorStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyTensorDescriptor(cudnnTensorDescriptor_t tensorDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc);
        delete tensorDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensor4dDescriptor(cudnnTensorDescriptor_t tensorDesc, cudnnTensorFormat_t format,
                                                     cudnnDataType_t dataType, int n, int c, int h, int w) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("format", format).arg("dataType", dataType);
        call.arg("n", n).arg("c", c).arg("h", h).arg("w", w);
        LIBREDNN_REQUIRE_NOT_NULL(tensorDesc);
        const int dims[4] = {n, c, h, w};
        return librednn::set_tensor_packed(tensorDesc, format, dataType, 4, dims, librednn::kTensor4dNames);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensor4dDescriptorEx(cudnnTensorDescriptor_t tensorDesc, cudnnDataType_t dataType,
                                                       int n, int c, int h, int w, int nStride, int cStride,
                                                       int hStride, int wStride) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("dataType", dataType);
        call.arg("n", n).arg("c", c).arg("h", h).arg("w", w);
        call.arg("nStride", nStride).arg("cStride", cStride).arg("hStride", hStride).arg("wStride", wStride);
        LIBREDNN_REQUIRE_NOT_NULL(tensorDesc);
        const int dims[4] = {n, c, h, w};
        const int strides[4] = {nStride, cStride, hStride, wStride};
        return librednn::set_tensor_strided(tensorDesc, dataType, 4, dims, strides, librednn::kTensor4dNames);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensor4dDescriptor(const cudnnTensorDescriptor_t tensorDesc,
                                                     cudnnDataType_t *dataType, int *n, int *c, int *h, int *w,
                                                     int *nStride, int *cStride, int *hStride, int *wStride) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("dataType", static_cast<const void *>(dataType));
        call.arg("n", static_cast<const void *>(n)).arg("c", static_cast<const void *>(c));
        call.arg("h", static_cast<const void *>(h)).arg("w", static_cast<const void *>(w));
        call.arg("nStride", static_cast<const void *>(nStride)).arg("cStride", static_cast<const void *>(cStride));
        call.arg("hStride", static_cast<const void *>(hStride)).arg("wStride", static_cast<const void *>(wStride));
        LIBREDNN_CHECK(librednn::require_tensor_set(tensorDesc, "tensorDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(dataType);
        LIBREDNN_REQUIRE_NOT_NULL(n);
        LIBREDNN_REQUIRE_NOT_NULL(c);
        LIBREDNN_REQUIRE_NOT_NULL(h);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_REQUIRE_NOT_NULL(nStride);
        LIBREDNN_REQUIRE_NOT_NULL(cStride);
        LIBREDNN_REQUIRE_NOT_NULL(hStride);
        LIBREDNN_REQUIRE_NOT_NULL(wStride);
        if (tensorDesc->nb_dims != 4) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "tensorDesc has %d dims (%s), cudnnGetTensor4dDescriptor needs 4; use "
                                  "cudnnGetTensorNdDescriptor",
                                  tensorDesc->nb_dims, librednn::tensor_to_string(*tensorDesc).c_str());
        }
        *dataType = tensorDesc->data_type;
        *n = tensorDesc->dims[0];
        *c = tensorDesc->dims[1];
        *h = tensorDesc->dims[2];
        *w = tensorDesc->dims[3];
        *nStride = tensorDesc->strides[0];
        *cStride = tensorDesc->strides[1];
        *hStride = tensorDesc->strides[2];
        *wStride = tensorDesc->strides[3];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensorNdDescriptor(cudnnTensorDescriptor_t tensorDesc, cudnnDataType_t dataType,
                                                     int nbDims, const int dimA[], const int strideA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("dataType", dataType).arg("nbDims", nbDims);
        call.array("dimA", dimA, nbDims, CUDNN_DIM_MAX).array("strideA", strideA, nbDims, CUDNN_DIM_MAX);
        LIBREDNN_REQUIRE_NOT_NULL(tensorDesc);
        LIBREDNN_CHECK(librednn::check_nb_dims(nbDims, "nbDims"));
        LIBREDNN_REQUIRE_NOT_NULL(dimA);
        LIBREDNN_REQUIRE_NOT_NULL(strideA);
        return librednn::set_tensor_strided(tensorDesc, dataType, nbDims, dimA, strideA);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensorNdDescriptorEx(cudnnTensorDescriptor_t tensorDesc, cudnnTensorFormat_t format,
                                                       cudnnDataType_t dataType, int nbDims, const int dimA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("format", format).arg("dataType", dataType).arg("nbDims", nbDims);
        call.array("dimA", dimA, nbDims, CUDNN_DIM_MAX);
        LIBREDNN_REQUIRE_NOT_NULL(tensorDesc);
        LIBREDNN_CHECK(librednn::check_nb_dims(nbDims, "nbDims"));
        LIBREDNN_REQUIRE_NOT_NULL(dimA);
        return librednn::set_tensor_packed(tensorDesc, format, dataType, nbDims, dimA);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensorNdDescriptor(const cudnnTensorDescriptor_t tensorDesc, int nbDimsRequested,
                                                     cudnnDataType_t *dataType, int *nbDims, int dimA[],
                                                     int strideA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("nbDimsRequested", nbDimsRequested);
        call.arg("dataType", static_cast<const void *>(dataType)).arg("nbDims", static_cast<const void *>(nbDims));
        call.arg("dimA", static_cast<const void *>(dimA)).arg("strideA", static_cast<const void *>(strideA));
        LIBREDNN_CHECK(librednn::require_tensor_set(tensorDesc, "tensorDesc"));
        if (nbDimsRequested < 0) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "nbDimsRequested is %d, must not be negative",
                                  nbDimsRequested);
        }
        LIBREDNN_REQUIRE_NOT_NULL(dataType);
        LIBREDNN_REQUIRE_NOT_NULL(nbDims);
        // The arrays hold nbDimsRequested values; the first min(nbDimsRequested, nbDims) are written.
        const int count = std::min(nbDimsRequested, tensorDesc->nb_dims);
        if (count > 0) {
            LIBREDNN_REQUIRE_NOT_NULL(dimA);
            LIBREDNN_REQUIRE_NOT_NULL(strideA);
        }
        *dataType = tensorDesc->data_type;
        *nbDims = tensorDesc->nb_dims;
        for (int i = 0; i < count; ++i) {
            dimA[i] = tensorDesc->dims[i];
            strideA[i] = tensorDesc->strides[i];
        }
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensorSizeInBytes(const cudnnTensorDescriptor_t tensorDesc, size_t *size) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("tensorDesc", tensorDesc).arg("size", static_cast<const void *>(size));
        LIBREDNN_CHECK(librednn::require_tensor_set(tensorDesc, "tensorDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(size);
        *size = librednn::tensor_size_in_bytes(*tensorDesc);
        return CUDNN_STATUS_SUCCESS;
    });
}
