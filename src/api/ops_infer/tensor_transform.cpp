// cudnnCreate/Set/Get/DestroyTensorTransformDescriptor and cudnnInitTransformDest.
#include "descriptors/tensor_transform.hpp"
#include "api/entry.hpp"
#include "descriptors/tensor.hpp"

#include <algorithm>

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateTensorTransformDescriptor(cudnnTensorTransformDescriptor_t *transformDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("transformDesc", static_cast<const void *>(transformDesc));
        LIBREDNN_REQUIRE_NOT_NULL(transformDesc);
        *transformDesc = new cudnnTensorTransformStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyTensorTransformDescriptor(cudnnTensorTransformDescriptor_t transformDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("transformDesc", transformDesc);
        delete transformDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetTensorTransformDescriptor(cudnnTensorTransformDescriptor_t transformDesc,
                                                            const uint32_t nbDims, const cudnnTensorFormat_t destFormat,
                                                            const int32_t padBeforeA[], const int32_t padAfterA[],
                                                            const uint32_t foldA[],
                                                            const cudnnFoldingDirection_t direction) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        const long long dims = nbDims;  // unsigned: any value is a count
        call.arg("transformDesc", transformDesc).arg("nbDims", nbDims).arg("destFormat", destFormat);
        call.array("padBeforeA", padBeforeA, dims, CUDNN_DIM_MAX).array("padAfterA", padAfterA, dims, CUDNN_DIM_MAX);
        call.array("foldA", foldA, dims - 2, CUDNN_DIM_MAX - 2).arg("direction", direction);
        LIBREDNN_REQUIRE_NOT_NULL(transformDesc);
        return librednn::set_tensor_transform(transformDesc, nbDims, destFormat, padBeforeA, padAfterA, foldA,
                                              direction);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetTensorTransformDescriptor(cudnnTensorTransformDescriptor_t transformDesc,
                                                            uint32_t nbDimsRequested, cudnnTensorFormat_t *destFormat,
                                                            int32_t padBeforeA[], int32_t padAfterA[], uint32_t foldA[],
                                                            cudnnFoldingDirection_t *direction) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("transformDesc", transformDesc).arg("nbDimsRequested", nbDimsRequested);
        call.arg("destFormat", static_cast<const void *>(destFormat));
        call.arg("padBeforeA", static_cast<const void *>(padBeforeA));
        call.arg("padAfterA", static_cast<const void *>(padAfterA));
        call.arg("foldA", static_cast<const void *>(foldA)).arg("direction", static_cast<const void *>(direction));
        LIBREDNN_REQUIRE_NOT_NULL(transformDesc);
        if (!transformDesc->is_set) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "transformDesc has not been set (call cudnnSetTensorTransformDescriptor first)");
        }
        if (nbDimsRequested < 3 || nbDimsRequested > CUDNN_DIM_MAX) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "nbDimsRequested is %u, must be between 3 and %d (CUDNN_DIM_MAX)", nbDimsRequested,
                                  CUDNN_DIM_MAX);
        }
        LIBREDNN_REQUIRE_NOT_NULL(destFormat);
        LIBREDNN_REQUIRE_NOT_NULL(padBeforeA);
        LIBREDNN_REQUIRE_NOT_NULL(padAfterA);
        LIBREDNN_REQUIRE_NOT_NULL(foldA);
        LIBREDNN_REQUIRE_NOT_NULL(direction);
        // The pad arrays hold nbDimsRequested values and foldA two fewer (one per spatial dim); the
        // first of them up to what the descriptor holds are written.
        const int count = static_cast<int>(std::min<uint32_t>(nbDimsRequested, transformDesc->nb_dims));
        *destFormat = transformDesc->dest_format;
        *direction = transformDesc->direction;
        for (int i = 0; i < count; ++i) {
            padBeforeA[i] = transformDesc->pad_before[i];
            padAfterA[i] = transformDesc->pad_after[i];
        }
        for (int i = 0; i + 2 < count; ++i) foldA[i] = transformDesc->fold[i];
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnInitTransformDest(const cudnnTensorTransformDescriptor_t transformDesc,
                                                 const cudnnTensorDescriptor_t srcDesc,
                                                 cudnnTensorDescriptor_t destDesc, size_t *destSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("transformDesc", transformDesc).arg("srcDesc", srcDesc);
        call.arg("destDesc", static_cast<const void *>(destDesc));
        call.arg("destSizeInBytes", static_cast<const void *>(destSizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(transformDesc);
        if (!transformDesc->is_set) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "transformDesc has not been set (call cudnnSetTensorTransformDescriptor first)");
        }
        LIBREDNN_CHECK(librednn::require_tensor_set(srcDesc, "srcDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(destDesc);
        LIBREDNN_REQUIRE_NOT_NULL(destSizeInBytes);
        LIBREDNN_CHECK(librednn::transform_destination(*transformDesc, *srcDesc, destDesc));
        *destSizeInBytes = librednn::tensor_size_in_bytes(*destDesc);
        return CUDNN_STATUS_SUCCESS;
    });
}
