// The Ex batch-norm calls: cudnnBatchNormalizationForwardTrainingEx and BackwardEx, and their workspace
// and reserve-space sizes. bnOps BN is the plain calls' arithmetic; BN_ACTIVATION applies ReLU after the
// normalisation and BN_ADD_ACTIVATION adds z before it. Backward masks dy with y > 0 (y the forward's
// output, so no reserve space is needed) and writes the masked gradient to dz after an add. LibreDNN
// needs no workspace and no reserve space: every size is 0, and the pointers may be NULL.
#include "api/batch_norm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/batch_norm/solvers.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

librednn::api::BatchNormExtras extras_of(cudnnBatchNormOps_t ops, const cudnnTensorStruct *z,
                                         const cudnnTensorStruct *forward_y, const cudnnActivationStruct *activation) {
    librednn::api::BatchNormExtras extras;
    extras.ops = ops;
    extras.z = z;
    extras.forward_y = forward_y;
    extras.activation = activation;
    return extras;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const cudnnTensorDescriptor_t xDesc,
    const cudnnTensorDescriptor_t zDesc, const cudnnTensorDescriptor_t yDesc,
    const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const cudnnActivationDescriptor_t activationDesc,
    size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("bnOps", bnOps).arg("xDesc", xDesc).arg("zDesc", zDesc);
        call.arg("yDesc", yDesc).arg("bnScaleBiasMeanVarDesc", bnScaleBiasMeanVarDesc);
        call.arg("activationDesc", activationDesc).arg("sizeInBytes", sizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::batch_norm_ex_problem_of(
            librednn::BatchNormPhase::training, mode, extras_of(bnOps, zDesc, nullptr, activationDesc), xDesc, yDesc,
            nullptr, bnScaleBiasMeanVarDesc, CUDNN_BN_MIN_EPSILON, &problem));
        *sizeInBytes = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetBatchNormalizationBackwardExWorkspaceSize(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const cudnnTensorDescriptor_t xDesc,
    const cudnnTensorDescriptor_t yDesc, const cudnnTensorDescriptor_t dyDesc, const cudnnTensorDescriptor_t dzDesc,
    const cudnnTensorDescriptor_t dxDesc, const cudnnTensorDescriptor_t dBnScaleBiasDesc,
    const cudnnActivationDescriptor_t activationDesc, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("bnOps", bnOps).arg("xDesc", xDesc).arg("yDesc", yDesc);
        call.arg("dyDesc", dyDesc).arg("dzDesc", dzDesc).arg("dxDesc", dxDesc);
        call.arg("dBnScaleBiasDesc", dBnScaleBiasDesc).arg("activationDesc", activationDesc);
        call.arg("sizeInBytes", sizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::batch_norm_ex_problem_of(
            librednn::BatchNormPhase::backward, mode, extras_of(bnOps, dzDesc, yDesc, activationDesc), xDesc, dyDesc,
            dxDesc, dBnScaleBiasDesc, CUDNN_BN_MIN_EPSILON, &problem));
        *sizeInBytes = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetBatchNormalizationTrainingExReserveSpaceSize(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps,
    const cudnnActivationDescriptor_t activationDesc, const cudnnTensorDescriptor_t xDesc, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("bnOps", bnOps).arg("activationDesc", activationDesc);
        call.arg("xDesc", xDesc).arg("sizeInBytes", sizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        if (librednn::batch_norm_mode_name(mode) == nullptr || librednn::batch_norm_ops_name(bnOps) == nullptr) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "mode %d or bnOps %d is not a value of its enum",
                                  static_cast<int>(mode), static_cast<int>(bnOps));
        }
        if (bnOps != CUDNN_BATCHNORM_OPS_BN) {
            LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
            LIBREDNN_CHECK(librednn::require_activation_set(*activationDesc, "activationDesc"));
        }
        *sizeInBytes = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationForwardTrainingEx(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const void *alpha, const void *beta,
    const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t zDesc, const void *zData,
    const cudnnTensorDescriptor_t yDesc, void *yData, const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc,
    const void *bnScale, const void *bnBias, double exponentialAverageFactor, void *resultRunningMean,
    void *resultRunningVariance, double epsilon, void *resultSaveMean, void *resultSaveInvVariance,
    cudnnActivationDescriptor_t activationDesc, void *workspace, size_t workSpaceSizeInBytes, void *reserveSpace,
    size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("bnOps", bnOps).arg("alpha", alpha).arg("beta", beta);
        call.arg("xDesc", xDesc).arg("xData", xData).arg("zDesc", zDesc).arg("zData", zData).arg("yDesc", yDesc);
        call.arg("yData", yData).arg("bnScaleBiasMeanVarDesc", bnScaleBiasMeanVarDesc).arg("bnScale", bnScale);
        call.arg("bnBias", bnBias).arg("exponentialAverageFactor", exponentialAverageFactor);
        call.arg("resultRunningMean", resultRunningMean).arg("resultRunningVariance", resultRunningVariance);
        call.arg("epsilon", epsilon).arg("resultSaveMean", resultSaveMean);
        call.arg("resultSaveInvVariance", resultSaveInvVariance).arg("activationDesc", activationDesc);
        call.arg("workspace", workspace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", reserveSpace).arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::batch_norm_ex_problem_of(
            librednn::BatchNormPhase::training, mode, extras_of(bnOps, zDesc, nullptr, activationDesc), xDesc, yDesc,
            nullptr, bnScaleBiasMeanVarDesc, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(xData);
        LIBREDNN_REQUIRE_NOT_NULL(yData);
        LIBREDNN_REQUIRE_NOT_NULL(bnScale);
        LIBREDNN_REQUIRE_NOT_NULL(bnBias);
        if (problem.adds()) LIBREDNN_REQUIRE_NOT_NULL(zData);
        LIBREDNN_CHECK(librednn::api::optional_pair(resultRunningMean, "resultRunningMean", resultRunningVariance,
                                                    "resultRunningVariance", &problem.running));
        LIBREDNN_CHECK(librednn::api::optional_pair(resultSaveMean, "resultSaveMean", resultSaveInvVariance,
                                                    "resultSaveInvVariance", &problem.saved));
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.factor = exponentialAverageFactor;
        librednn::BatchNormBuffers buffers;
        buffers.x = xData;
        buffers.z = zData;
        buffers.result = yData;
        buffers.scale = bnScale;
        buffers.bias = bnBias;
        buffers.running_mean = resultRunningMean;
        buffers.running_variance = resultRunningVariance;
        buffers.saved_mean = resultSaveMean;
        buffers.saved_inv_variance = resultSaveInvVariance;
        return librednn::dispatch_and_run(librednn::batch_norm_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "batch norm");
    });
}

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationBackwardEx(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, cudnnBatchNormOps_t bnOps, const void *alphaDataDiff,
    const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
    const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t yDesc, const void *yData,
    const cudnnTensorDescriptor_t dyDesc, const void *dyData, const cudnnTensorDescriptor_t dzDesc, void *dzData,
    const cudnnTensorDescriptor_t dxDesc, void *dxData, const cudnnTensorDescriptor_t dBnScaleBiasDesc,
    const void *bnScaleData, const void *bnBiasData, void *dBnScaleData, void *dBnBiasData, double epsilon,
    const void *savedMean, const void *savedInvVariance, cudnnActivationDescriptor_t activationDesc, void *workSpace,
    size_t workSpaceSizeInBytes, void *reserveSpace, size_t reserveSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("bnOps", bnOps).arg("alphaDataDiff", alphaDataDiff);
        call.arg("betaDataDiff", betaDataDiff).arg("alphaParamDiff", alphaParamDiff);
        call.arg("betaParamDiff", betaParamDiff).arg("xDesc", xDesc).arg("xData", xData).arg("yDesc", yDesc);
        call.arg("yData", yData).arg("dyDesc", dyDesc).arg("dyData", dyData).arg("dzDesc", dzDesc);
        call.arg("dzData", dzData).arg("dxDesc", dxDesc).arg("dxData", dxData);
        call.arg("dBnScaleBiasDesc", dBnScaleBiasDesc).arg("bnScaleData", bnScaleData).arg("bnBiasData", bnBiasData);
        call.arg("dBnScaleData", dBnScaleData).arg("dBnBiasData", dBnBiasData).arg("epsilon", epsilon);
        call.arg("savedMean", savedMean).arg("savedInvVariance", savedInvVariance);
        call.arg("activationDesc", activationDesc).arg("workSpace", workSpace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("reserveSpace", reserveSpace);
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::batch_norm_ex_problem_of(librednn::BatchNormPhase::backward, mode,
                                                               extras_of(bnOps, dzDesc, yDesc, activationDesc), xDesc,
                                                               dyDesc, dxDesc, dBnScaleBiasDesc, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alphaDataDiff);
        LIBREDNN_REQUIRE_NOT_NULL(betaDataDiff);
        LIBREDNN_REQUIRE_NOT_NULL(alphaParamDiff);
        LIBREDNN_REQUIRE_NOT_NULL(betaParamDiff);
        LIBREDNN_REQUIRE_NOT_NULL(xData);
        LIBREDNN_REQUIRE_NOT_NULL(dyData);
        LIBREDNN_REQUIRE_NOT_NULL(dxData);
        LIBREDNN_REQUIRE_NOT_NULL(bnScaleData);
        LIBREDNN_REQUIRE_NOT_NULL(dBnScaleData);
        LIBREDNN_REQUIRE_NOT_NULL(dBnBiasData);
        if (problem.activation()) LIBREDNN_REQUIRE_NOT_NULL(yData);
        if (problem.adds()) LIBREDNN_REQUIRE_NOT_NULL(dzData);
        LIBREDNN_CHECK(
            librednn::api::optional_pair(savedMean, "savedMean", savedInvVariance, "savedInvVariance", &problem.saved));
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alphaDataDiff, in_double);
        problem.beta = librednn::read_scaling_factor(betaDataDiff, in_double);
        problem.param_alpha = librednn::read_scaling_factor(alphaParamDiff, in_double);
        problem.param_beta = librednn::read_scaling_factor(betaParamDiff, in_double);
        librednn::BatchNormBuffers buffers;
        buffers.x = xData;
        buffers.y = yData;
        buffers.dy = dyData;
        buffers.dz = dzData;
        buffers.result = dxData;
        buffers.scale = bnScaleData;
        buffers.mean = savedMean;
        buffers.variance = savedInvVariance;
        buffers.dscale = dBnScaleData;
        buffers.dbias = dBnBiasData;
        return librednn::dispatch_and_run(librednn::batch_norm_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "batch norm");
    });
}
