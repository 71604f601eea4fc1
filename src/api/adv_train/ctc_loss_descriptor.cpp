// The CTC loss descriptor's create/destroy and its three setters and three getters.
#include "api/entry.hpp"
#include "descriptors/ctc_loss.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateCTCLossDescriptor(cudnnCTCLossDescriptor_t *ctcLossDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", static_cast<const void *>(ctcLossDesc));
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        *ctcLossDesc = new cudnnCTCLossStruct();
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyCTCLossDescriptor(cudnnCTCLossDescriptor_t ctcLossDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc);
        delete ctcLossDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}

// The shorter setters leave normMode and gradMode at what cudnnSetCTCLossDescriptor means
// (CUDNN_LOSS_NORMALIZATION_NONE, CUDNN_NOT_PROPAGATE_NAN) and maxLabelLength at its default.
cudnnStatus_t CUDNNWINAPI cudnnSetCTCLossDescriptor(cudnnCTCLossDescriptor_t ctcLossDesc, cudnnDataType_t compType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc).arg("compType", compType);
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        return librednn::set_ctc_loss(ctcLossDesc, compType, CUDNN_LOSS_NORMALIZATION_NONE, CUDNN_NOT_PROPAGATE_NAN,
                                      librednn::kDefaultCtcMaxLabelLength);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetCTCLossDescriptorEx(cudnnCTCLossDescriptor_t ctcLossDesc, cudnnDataType_t compType,
                                                      cudnnLossNormalizationMode_t normMode,
                                                      cudnnNanPropagation_t gradMode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc).arg("compType", compType).arg("normMode", normMode);
        call.arg("gradMode", gradMode);
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        return librednn::set_ctc_loss(ctcLossDesc, compType, normMode, gradMode, librednn::kDefaultCtcMaxLabelLength);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetCTCLossDescriptor_v8(cudnnCTCLossDescriptor_t ctcLossDesc, cudnnDataType_t compType,
                                                       cudnnLossNormalizationMode_t normMode,
                                                       cudnnNanPropagation_t gradMode, int maxLabelLength) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc).arg("compType", compType).arg("normMode", normMode);
        call.arg("gradMode", gradMode).arg("maxLabelLength", maxLabelLength);
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        return librednn::set_ctc_loss(ctcLossDesc, compType, normMode, gradMode, maxLabelLength);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetCTCLossDescriptor(cudnnCTCLossDescriptor_t ctcLossDesc, cudnnDataType_t *compType) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc).arg("compType", static_cast<const void *>(compType));
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        LIBREDNN_REQUIRE_NOT_NULL(compType);
        LIBREDNN_CHECK(librednn::require_ctc_loss_set(*ctcLossDesc));
        *compType = ctcLossDesc->comp_type;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetCTCLossDescriptorEx(cudnnCTCLossDescriptor_t ctcLossDesc, cudnnDataType_t *compType,
                                                      cudnnLossNormalizationMode_t *normMode,
                                                      cudnnNanPropagation_t *gradMode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc).arg("compType", static_cast<const void *>(compType));
        call.arg("normMode", static_cast<const void *>(normMode)).arg("gradMode", static_cast<const void *>(gradMode));
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        LIBREDNN_REQUIRE_NOT_NULL(compType);
        LIBREDNN_REQUIRE_NOT_NULL(normMode);
        LIBREDNN_REQUIRE_NOT_NULL(gradMode);
        LIBREDNN_CHECK(librednn::require_ctc_loss_set(*ctcLossDesc));
        *compType = ctcLossDesc->comp_type;
        *normMode = ctcLossDesc->norm_mode;
        *gradMode = ctcLossDesc->grad_mode;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetCTCLossDescriptor_v8(cudnnCTCLossDescriptor_t ctcLossDesc, cudnnDataType_t *compType,
                                                       cudnnLossNormalizationMode_t *normMode,
                                                       cudnnNanPropagation_t *gradMode, int *maxLabelLength) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("ctcLossDesc", ctcLossDesc).arg("compType", static_cast<const void *>(compType));
        call.arg("normMode", static_cast<const void *>(normMode)).arg("gradMode", static_cast<const void *>(gradMode));
        call.arg("maxLabelLength", static_cast<const void *>(maxLabelLength));
        LIBREDNN_REQUIRE_NOT_NULL(ctcLossDesc);
        LIBREDNN_REQUIRE_NOT_NULL(compType);
        LIBREDNN_REQUIRE_NOT_NULL(normMode);
        LIBREDNN_REQUIRE_NOT_NULL(gradMode);
        LIBREDNN_REQUIRE_NOT_NULL(maxLabelLength);
        LIBREDNN_CHECK(librednn::require_ctc_loss_set(*ctcLossDesc));
        *compType = ctcLossDesc->comp_type;
        *normMode = ctcLossDesc->norm_mode;
        *gradMode = ctcLossDesc->grad_mode;
        *maxLabelLength = ctcLossDesc->max_label_length;
        return CUDNN_STATUS_SUCCESS;
    });
}
