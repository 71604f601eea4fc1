// cudnnCreate/Set/Get/DestroyReduceTensorDescriptor.
#include "descriptors/reduce_tensor.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateReduceTensorDescriptor(cudnnReduceTensorDescriptor_t *reduceTensorDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("reduceTensorDesc", static_cast<const void *>(reduceTensorDesc));
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorDesc);
        *reduceTensorDesc = new cudnnReduceTensorStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetReduceTensorDescriptor(cudnnReduceTensorDescriptor_t reduceTensorDesc,
                                                         cudnnReduceTensorOp_t reduceTensorOp,
                                                         cudnnDataType_t reduceTensorCompType,
                                                         cudnnNanPropagation_t reduceTensorNanOpt,
                                                         cudnnReduceTensorIndices_t reduceTensorIndices,
                                                         cudnnIndicesType_t reduceTensorIndicesType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("reduceTensorDesc", reduceTensorDesc)
            .arg("reduceTensorOp", reduceTensorOp)
            .arg("reduceTensorCompType", reduceTensorCompType)
            .arg("reduceTensorNanOpt", reduceTensorNanOpt)
            .arg("reduceTensorIndices", reduceTensorIndices)
            .arg("reduceTensorIndicesType", reduceTensorIndicesType);
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorDesc);
        return librednn::set_reduce_tensor(reduceTensorDesc, reduceTensorOp, reduceTensorCompType, reduceTensorNanOpt,
                                           reduceTensorIndices, reduceTensorIndicesType);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetReduceTensorDescriptor(const cudnnReduceTensorDescriptor_t reduceTensorDesc,
                                                         cudnnReduceTensorOp_t *reduceTensorOp,
                                                         cudnnDataType_t *reduceTensorCompType,
                                                         cudnnNanPropagation_t *reduceTensorNanOpt,
                                                         cudnnReduceTensorIndices_t *reduceTensorIndices,
                                                         cudnnIndicesType_t *reduceTensorIndicesType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("reduceTensorDesc", reduceTensorDesc)
            .arg("reduceTensorOp", static_cast<const void *>(reduceTensorOp))
            .arg("reduceTensorCompType", static_cast<const void *>(reduceTensorCompType))
            .arg("reduceTensorNanOpt", static_cast<const void *>(reduceTensorNanOpt))
            .arg("reduceTensorIndices", static_cast<const void *>(reduceTensorIndices))
            .arg("reduceTensorIndicesType", static_cast<const void *>(reduceTensorIndicesType));
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorDesc);
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorOp);
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorCompType);
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorIndices);
        LIBREDNN_REQUIRE_NOT_NULL(reduceTensorIndicesType);
        LIBREDNN_CHECK(librednn::require_reduce_tensor_set(*reduceTensorDesc, "reduceTensorDesc"));
        *reduceTensorOp = reduceTensorDesc->op;
        *reduceTensorCompType = reduceTensorDesc->comp_type;
        *reduceTensorNanOpt = reduceTensorDesc->nan_opt;
        *reduceTensorIndices = reduceTensorDesc->indices;
        *reduceTensorIndicesType = reduceTensorDesc->indices_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyReduceTensorDescriptor(cudnnReduceTensorDescriptor_t reduceTensorDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("reduceTensorDesc", reduceTensorDesc);
        delete reduceTensorDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}
