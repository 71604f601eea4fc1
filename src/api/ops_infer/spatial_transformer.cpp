// cudnnCreate/DestroySpatialTransformerDescriptor and cudnnSetSpatialTransformerNdDescriptor.
#include "descriptors/spatial_transformer.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateSpatialTransformerDescriptor(cudnnSpatialTransformerDescriptor_t *stDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("stDesc", static_cast<const void *>(stDesc));
        LIBREDNN_REQUIRE_NOT_NULL(stDesc);
        *stDesc = new cudnnSpatialTransformerStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetSpatialTransformerNdDescriptor(cudnnSpatialTransformerDescriptor_t stDesc,
                                                                 cudnnSamplerType_t samplerType,
                                                                 cudnnDataType_t dataType, const int nbDims,
                                                                 const int dimA[]) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("stDesc", stDesc)
            .arg("samplerType", samplerType)
            .arg("dataType", dataType)
            .arg("nbDims", nbDims)
            .array("dimA", dimA, nbDims, librednn::kSpatialTransformerDims);
        LIBREDNN_REQUIRE_NOT_NULL(stDesc);
        LIBREDNN_REQUIRE_NOT_NULL(dimA);
        return librednn::set_spatial_transformer(stDesc, samplerType, dataType, nbDims, dimA);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroySpatialTransformerDescriptor(cudnnSpatialTransformerDescriptor_t stDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("stDesc", stDesc);
        delete stDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}
