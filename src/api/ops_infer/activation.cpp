// cudnnCreate/Set/Get/DestroyActivationDescriptor and cudnnSet/GetActivationDescriptorSwishBeta.
#include "descriptors/activation.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnCreateActivationDescriptor(cudnnActivationDescriptor_t *activationDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("activationDesc", static_cast<const void *>(activationDesc));
        LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
        *activationDesc = new cudnnActivationStruct;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetActivationDescriptor(cudnnActivationDescriptor_t activationDesc,
                                                       cudnnActivationMode_t mode, cudnnNanPropagation_t reluNanOpt,
                                                       double coef) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("activationDesc", activationDesc).arg("mode", mode).arg("reluNanOpt", reluNanOpt).arg("coef", coef);
        LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
        return librednn::set_activation(activationDesc, mode, reluNanOpt, coef);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetActivationDescriptor(const cudnnActivationDescriptor_t activationDesc,
                                                       cudnnActivationMode_t *mode, cudnnNanPropagation_t *reluNanOpt,
                                                       double *coef) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("activationDesc", activationDesc)
            .arg("mode", static_cast<const void *>(mode))
            .arg("reluNanOpt", static_cast<const void *>(reluNanOpt))
            .arg("coef", static_cast<const void *>(coef));
        LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
        LIBREDNN_REQUIRE_NOT_NULL(mode);
        LIBREDNN_REQUIRE_NOT_NULL(reluNanOpt);
        LIBREDNN_REQUIRE_NOT_NULL(coef);
        LIBREDNN_CHECK(librednn::require_activation_set(*activationDesc, "activationDesc"));
        *mode = activationDesc->mode;
        *reluNanOpt = activationDesc->nan_opt;
        *coef = activationDesc->coef;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetActivationDescriptorSwishBeta(cudnnActivationDescriptor_t activationDesc,
                                                                double swish_beta) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("activationDesc", activationDesc).arg("swish_beta", swish_beta);
        LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
        activationDesc->swish_beta = swish_beta;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetActivationDescriptorSwishBeta(cudnnActivationDescriptor_t activationDesc,
                                                                double *swish_beta) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("activationDesc", activationDesc).arg("swish_beta", static_cast<const void *>(swish_beta));
        LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
        LIBREDNN_REQUIRE_NOT_NULL(swish_beta);
        *swish_beta = activationDesc->swish_beta;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyActivationDescriptor(cudnnActivationDescriptor_t activationDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("activationDesc", activationDesc);
        delete activationDesc;
        return CUDNN_STATUS_SUCCESS;
    });
}
