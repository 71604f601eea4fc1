// cudnnNormalizationForwardTraining and cudnnNormalizationBackward, and their workspace and reserve
// sizes: the Ex batch-norm calls under another name (api/batch_norm_problem.hpp maps the arguments).
// LibreDNN needs no workspace and no reserve space: every size is 0.
#include "api/batch_norm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/batch_norm/solvers.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

librednn::api::BatchNormExtras extras_of(const cudnnTensorStruct *z, const cudnnTensorStruct *forward_y,
                                         const cudnnActivationStruct *activation) {
    librednn::api::BatchNormExtras extras;
    extras.z = z;
    extras.forward_y = forward_y;
    extras.activation = activation;
    return extras;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetNormalizationForwardTrainingWorkspaceSize(
    cudnnHandle_t handle, cudnnNormMode_t mode, cudnnNormOps_t normOps, cudnnNormAlgo_t algo,
    const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t zDesc, const cudnnTensorDescriptor_t yDesc,
    const cudnnTensorDescriptor_t normScaleBiasDesc, const cudnnActivationDescriptor_t activationDesc,
    const cudnnTensorDescriptor_t normMeanVarDesc, size_t *sizeInBytes, int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("normOps", normOps).arg("algo", algo).arg("xDesc", xDesc);
        call.arg("zDesc", zDesc).arg("yDesc", yDesc).arg("normScaleBiasDesc", normScaleBiasDesc);
        call.arg("activationDesc", activationDesc).arg("normMeanVarDesc", normMeanVarDesc);
        call.arg("sizeInBytes", sizeInBytes).arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::normalization_problem_of(
            librednn::BatchNormPhase::training, {mode, normOps, algo, groupCnt, normScaleBiasDesc, normMeanVarDesc},
            extras_of(zDesc, nullptr, activationDesc), xDesc, yDesc, nullptr, CUDNN_BN_MIN_EPSILON, &problem));
        *sizeInBytes = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetNormalizationBackwardWorkspaceSize(
    cudnnHandle_t handle, cudnnNormMode_t mode, cudnnNormOps_t normOps, cudnnNormAlgo_t algo,
    const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t yDesc, const cudnnTensorDescriptor_t dyDesc,
    const cudnnTensorDescriptor_t dzDesc, const cudnnTensorDescriptor_t dxDesc,
    const cudnnTensorDescriptor_t dNormScaleBiasDesc, const cudnnActivationDescriptor_t activationDesc,
    const cudnnTensorDescriptor_t normMeanVarDesc, size_t *sizeInBytes, int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("normOps", normOps).arg("algo", algo).arg("xDesc", xDesc);
        call.arg("yDesc", yDesc).arg("dyDesc", dyDesc).arg("dzDesc", dzDesc).arg("dxDesc", dxDesc);
        call.arg("dNormScaleBiasDesc", dNormScaleBiasDesc).arg("activationDesc", activationDesc);
        call.arg("normMeanVarDesc", normMeanVarDesc).arg("sizeInBytes", sizeInBytes).arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::normalization_problem_of(
            librednn::BatchNormPhase::backward, {mode, normOps, algo, groupCnt, dNormScaleBiasDesc, normMeanVarDesc},
            extras_of(dzDesc, yDesc, activationDesc), xDesc, dyDesc, dxDesc, CUDNN_BN_MIN_EPSILON, &problem));
        *sizeInBytes = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI
cudnnGetNormalizationTrainingReserveSpaceSize(cudnnHandle_t handle, cudnnNormMode_t mode, cudnnNormOps_t normOps,
                                              cudnnNormAlgo_t algo, const cudnnActivationDescriptor_t activationDesc,
                                              const cudnnTensorDescriptor_t xDesc, size_t *sizeInBytes, int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("normOps", normOps).arg("algo", algo);
        call.arg("activationDesc", activationDesc).arg("xDesc", xDesc).arg("sizeInBytes", sizeInBytes);
        call.arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        if ((mode != CUDNN_NORM_PER_ACTIVATION && mode != CUDNN_NORM_PER_CHANNEL) ||
            (algo != CUDNN_NORM_ALGO_STANDARD && algo != CUDNN_NORM_ALGO_PERSIST) || normOps < CUDNN_NORM_OPS_NORM ||
            normOps > CUDNN_NORM_OPS_NORM_ADD_ACTIVATION) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "mode %d, normOps %d or algo %d is not a value of its enum",
                                  static_cast<int>(mode), static_cast<int>(normOps), static_cast<int>(algo));
        }
        if (groupCnt != 1) {
            return librednn::fail(groupCnt < 1 ? CUDNN_STATUS_BAD_PARAM : CUDNN_STATUS_NOT_SUPPORTED,
                                  "groupCnt is %d; cuDNN 8.9 supports only 1", groupCnt);
        }
        if (normOps != CUDNN_NORM_OPS_NORM) {
            LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
            LIBREDNN_CHECK(librednn::require_activation_set(*activationDesc, "activationDesc"));
        }
        *sizeInBytes = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnNormalizationForwardTraining(
    cudnnHandle_t handle, cudnnNormMode_t mode, cudnnNormOps_t normOps, cudnnNormAlgo_t algo, const void *alpha,
    const void *beta, const cudnnTensorDescriptor_t xDesc, const void *xData,
    const cudnnTensorDescriptor_t normScaleBiasDesc, const void *normScale, const void *normBias,
    double exponentialAverageFactor, const cudnnTensorDescriptor_t normMeanVarDesc, void *resultRunningMean,
    void *resultRunningVariance, double epsilon, void *resultSaveMean, void *resultSaveInvVariance,
    cudnnActivationDescriptor_t activationDesc, const cudnnTensorDescriptor_t zDesc, const void *zData,
    const cudnnTensorDescriptor_t yDesc, void *yData, void *workspace, size_t workSpaceSizeInBytes, void *reserveSpace,
    size_t reserveSpaceSizeInBytes, int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("normOps", normOps).arg("algo", algo).arg("alpha", alpha);
        call.arg("beta", beta).arg("xDesc", xDesc).arg("xData", xData).arg("normScaleBiasDesc", normScaleBiasDesc);
        call.arg("normScale", normScale).arg("normBias", normBias);
        call.arg("exponentialAverageFactor", exponentialAverageFactor).arg("normMeanVarDesc", normMeanVarDesc);
        call.arg("resultRunningMean", resultRunningMean).arg("resultRunningVariance", resultRunningVariance);
        call.arg("epsilon", epsilon).arg("resultSaveMean", resultSaveMean);
        call.arg("resultSaveInvVariance", resultSaveInvVariance).arg("activationDesc", activationDesc);
        call.arg("zDesc", zDesc).arg("zData", zData).arg("yDesc", yDesc).arg("yData", yData);
        call.arg("workspace", workspace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        call.arg("reserveSpace", reserveSpace).arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes);
        call.arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::normalization_problem_of(
            librednn::BatchNormPhase::training, {mode, normOps, algo, groupCnt, normScaleBiasDesc, normMeanVarDesc},
            extras_of(zDesc, nullptr, activationDesc), xDesc, yDesc, nullptr, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(xData);
        LIBREDNN_REQUIRE_NOT_NULL(yData);
        LIBREDNN_REQUIRE_NOT_NULL(normScale);
        LIBREDNN_REQUIRE_NOT_NULL(normBias);
        if (problem.adds()) LIBREDNN_REQUIRE_NOT_NULL(zData);
        LIBREDNN_CHECK(librednn::api::optional_pair(resultRunningMean, "resultRunningMean", resultRunningVariance,
                                                    "resultRunningVariance", &problem.running));
        LIBREDNN_CHECK(librednn::api::optional_pair(resultSaveMean, "resultSaveMean", resultSaveInvVariance,
                                                    "resultSaveInvVariance", &problem.saved));
        if (problem.running || problem.saved) LIBREDNN_REQUIRE_NOT_NULL(normMeanVarDesc);
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.factor = exponentialAverageFactor;
        librednn::BatchNormBuffers buffers;
        buffers.x = xData;
        buffers.z = zData;
        buffers.result = yData;
        buffers.scale = normScale;
        buffers.bias = normBias;
        buffers.running_mean = resultRunningMean;
        buffers.running_variance = resultRunningVariance;
        buffers.saved_mean = resultSaveMean;
        buffers.saved_inv_variance = resultSaveInvVariance;
        return librednn::dispatch_and_run(librednn::batch_norm_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "normalization");
    });
}

cudnnStatus_t CUDNNWINAPI cudnnNormalizationBackward(
    cudnnHandle_t handle, cudnnNormMode_t mode, cudnnNormOps_t normOps, cudnnNormAlgo_t algo, const void *alphaDataDiff,
    const void *betaDataDiff, const void *alphaParamDiff, const void *betaParamDiff,
    const cudnnTensorDescriptor_t xDesc, const void *xData, const cudnnTensorDescriptor_t yDesc, const void *yData,
    const cudnnTensorDescriptor_t dyDesc, const void *dyData, const cudnnTensorDescriptor_t dzDesc, void *dzData,
    const cudnnTensorDescriptor_t dxDesc, void *dxData, const cudnnTensorDescriptor_t dNormScaleBiasDesc,
    const void *normScaleData, const void *normBiasData, void *dNormScaleData, void *dNormBiasData, double epsilon,
    const cudnnTensorDescriptor_t normMeanVarDesc, const void *savedMean, const void *savedInvVariance,
    cudnnActivationDescriptor_t activationDesc, void *workSpace, size_t workSpaceSizeInBytes, void *reserveSpace,
    size_t reserveSpaceSizeInBytes, int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("normOps", normOps).arg("algo", algo);
        call.arg("alphaDataDiff", alphaDataDiff).arg("betaDataDiff", betaDataDiff);
        call.arg("alphaParamDiff", alphaParamDiff).arg("betaParamDiff", betaParamDiff).arg("xDesc", xDesc);
        call.arg("xData", xData).arg("yDesc", yDesc).arg("yData", yData).arg("dyDesc", dyDesc).arg("dyData", dyData);
        call.arg("dzDesc", dzDesc).arg("dzData", dzData).arg("dxDesc", dxDesc).arg("dxData", dxData);
        call.arg("dNormScaleBiasDesc", dNormScaleBiasDesc).arg("normScaleData", normScaleData);
        call.arg("normBiasData", normBiasData).arg("dNormScaleData", dNormScaleData);
        call.arg("dNormBiasData", dNormBiasData).arg("epsilon", epsilon).arg("normMeanVarDesc", normMeanVarDesc);
        call.arg("savedMean", savedMean).arg("savedInvVariance", savedInvVariance);
        call.arg("activationDesc", activationDesc).arg("workSpace", workSpace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("reserveSpace", reserveSpace);
        call.arg("reserveSpaceSizeInBytes", reserveSpaceSizeInBytes).arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::normalization_problem_of(
            librednn::BatchNormPhase::backward, {mode, normOps, algo, groupCnt, dNormScaleBiasDesc, normMeanVarDesc},
            extras_of(dzDesc, yDesc, activationDesc), xDesc, dyDesc, dxDesc, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alphaDataDiff);
        LIBREDNN_REQUIRE_NOT_NULL(betaDataDiff);
        LIBREDNN_REQUIRE_NOT_NULL(alphaParamDiff);
        LIBREDNN_REQUIRE_NOT_NULL(betaParamDiff);
        LIBREDNN_REQUIRE_NOT_NULL(xData);
        LIBREDNN_REQUIRE_NOT_NULL(dyData);
        LIBREDNN_REQUIRE_NOT_NULL(dxData);
        LIBREDNN_REQUIRE_NOT_NULL(normScaleData);
        LIBREDNN_REQUIRE_NOT_NULL(dNormScaleData);
        LIBREDNN_REQUIRE_NOT_NULL(dNormBiasData);
        if (problem.activation()) LIBREDNN_REQUIRE_NOT_NULL(yData);
        if (problem.adds()) LIBREDNN_REQUIRE_NOT_NULL(dzData);
        LIBREDNN_CHECK(
            librednn::api::optional_pair(savedMean, "savedMean", savedInvVariance, "savedInvVariance", &problem.saved));
        if (problem.saved) LIBREDNN_REQUIRE_NOT_NULL(normMeanVarDesc);
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
        buffers.scale = normScaleData;
        buffers.mean = savedMean;
        buffers.variance = savedInvVariance;
        buffers.dscale = dNormScaleData;
        buffers.dbias = dNormBiasData;
        return librednn::dispatch_and_run(librednn::batch_norm_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "normalization");
    });
}
