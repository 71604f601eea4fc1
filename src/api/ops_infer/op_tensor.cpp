// cudnnCreate/Set/Get/DestroyOpTensorDescriptor.
#include "descriptors/op_tensor.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateOpTensorDescriptor(cudnnOpTensorDescriptor_t *opTensorDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("opTensorDesc", static_cast<const void *>(opTensorDesc));
        LIBREDNN_REQUIRE_NOT_NULL(opTensorDesc);
        *opTensorDesc = new cudnnOpTensorStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetOpTensorDescriptor(cudnnOpTensorDescriptor_t opTensorDesc,
                                                     cudnnOpTensorOp_t opTensorOp, cudnnDataType_t opTensorCompType,
                                                     cudnnNanPropagation_t opTensorNanOpt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("opTensorDesc", opTensorDesc)
            .arg("opTensorOp", opTensorOp)
            .arg("opTensorCompType", opTensorCompType)
            .arg("opTensorNanOpt", opTensorNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(opTensorDesc);
        return librednn::set_op_tensor(opTensorDesc, opTensorOp, opTensorCompType, opTensorNanOpt);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetOpTensorDescriptor(const cudnnOpTensorDescriptor_t opTensorDesc,
                                                     cudnnOpTensorOp_t *opTensorOp, cudnnDataType_t *opTensorCompType,
                                                     cudnnNanPropagation_t *opTensorNanOpt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("opTensorDesc", opTensorDesc)
            .arg("opTensorOp", static_cast<const void *>(opTensorOp))
            .arg("opTensorCompType", static_cast<const void *>(opTensorCompType))
            .arg("opTensorNanOpt", static_cast<const void *>(opTensorNanOpt));
        LIBREDNN_REQUIRE_NOT_NULL(opTensorDesc);
        LIBREDNN_REQUIRE_NOT_NULL(opTensorOp);
        LIBREDNN_REQUIRE_NOT_NULL(opTensorCompType);
        LIBREDNN_REQUIRE_NOT_NULL(opTensorNanOpt);
        LIBREDNN_CHECK(librednn::require_op_tensor_set(*opTensorDesc, "opTensorDesc"));
        *opTensorOp = opTensorDesc->op;
        *opTensorCompType = opTensorDesc->comp_type;
        *opTensorNanOpt = opTensorDesc->nan_opt;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyOpTensorDescriptor(cudnnOpTensorDescriptor_t opTensorDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("opTensorDesc", opTensorDesc);
        delete opTensorDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}
