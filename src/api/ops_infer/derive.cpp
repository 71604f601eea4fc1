// cudnnDeriveBNTensorDescriptor and cudnnDeriveNormTensorDescriptor: the parameter tensors of a
// normalisation, derived from its input.
#include "api/entry.hpp"
#include "descriptors/tensor.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnDeriveBNTensorDescriptor(cudnnTensorDescriptor_t derivedBnDesc,
                                                        const cudnnTensorDescriptor_t xDesc,
                                                        cudnnBatchNormMode_t mode) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("derivedBnDesc", derivedBnDesc).arg("xDesc", xDesc).arg("mode", mode);
        LIBREDNN_REQUIRE_NOT_NULL(derivedBnDesc);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        if (librednn::enum_name(mode) == nullptr) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "mode is %d, must be CUDNN_BATCHNORM_PER_ACTIVATION, CUDNN_BATCHNORM_SPATIAL or "
                                  "CUDNN_BATCHNORM_SPATIAL_PERSISTENT",
                                  static_cast<int>(mode));
        }
        return librednn::derive_normalization_tensor(derivedBnDesc, *xDesc, mode != CUDNN_BATCHNORM_PER_ACTIVATION,
                                                     "xDesc");
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDeriveNormTensorDescriptor(cudnnTensorDescriptor_t derivedNormScaleBiasDesc,
                                                          cudnnTensorDescriptor_t derivedNormMeanVarDesc,
                                                          const cudnnTensorDescriptor_t xDesc, cudnnNormMode_t mode,
                                                          int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("derivedNormScaleBiasDesc", derivedNormScaleBiasDesc);
        call.arg("derivedNormMeanVarDesc", derivedNormMeanVarDesc);
        call.arg("xDesc", xDesc).arg("mode", mode).arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(derivedNormScaleBiasDesc);
        LIBREDNN_REQUIRE_NOT_NULL(derivedNormMeanVarDesc);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        if (librednn::enum_name(mode) == nullptr) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                  "mode is %d, must be CUDNN_NORM_PER_ACTIVATION or CUDNN_NORM_PER_CHANNEL",
                                  static_cast<int>(mode));
        }
        if (groupCnt < 1) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "groupCnt is %d, must be positive", groupCnt);
        }
        if (groupCnt != 1) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "groupCnt is %d, cuDNN 8.9 supports only 1", groupCnt);
        }
        // Derive into a local first, so that a failure leaves both outputs as they were.
        cudnnTensorStruct derived;
        LIBREDNN_CHECK(
            librednn::derive_normalization_tensor(&derived, *xDesc, mode == CUDNN_NORM_PER_CHANNEL, "xDesc"));
        *derivedNormScaleBiasDesc = derived;
        *derivedNormMeanVarDesc = derived;
        return CUDNN_STATUS_SUCCESS;
    });
}
