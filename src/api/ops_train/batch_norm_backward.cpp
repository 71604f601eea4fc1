// cudnnBatchNormalizationBackward: the gradients of y = scale * x_hat + bias.
//   dx     = alphaDataDiff  * scale * inv_std * (dy - dbias / M - x_hat * dscale / M) + betaDataDiff  * dx
//   dscale = alphaParamDiff * sum(dy * x_hat)                                        + betaParamDiff * dscale
//   dbias  = alphaParamDiff * sum(dy)                                                + betaParamDiff * dbias
// with the saved mean and inverse standard deviation when given, else this batch's, recomputed.
#include "api/batch_norm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/batch_norm/solvers.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationBackward(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alphaDataDiff, const void *betaDataDiff,
    const void *alphaParamDiff, const void *betaParamDiff, const cudnnTensorDescriptor_t xDesc, const void *x,
    const cudnnTensorDescriptor_t dyDesc, const void *dy, const cudnnTensorDescriptor_t dxDesc, void *dx,
    const cudnnTensorDescriptor_t dBnScaleBiasDesc, const void *bnScale, void *dBnScaleResult, void *dBnBiasResult,
    double epsilon, const void *savedMean, const void *savedInvVariance) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("alphaDataDiff", alphaDataDiff).arg("betaDataDiff", betaDataDiff);
        call.arg("alphaParamDiff", alphaParamDiff).arg("betaParamDiff", betaParamDiff).arg("xDesc", xDesc).arg("x", x);
        call.arg("dyDesc", dyDesc).arg("dy", dy).arg("dxDesc", dxDesc).arg("dx", dx);
        call.arg("dBnScaleBiasDesc", dBnScaleBiasDesc).arg("bnScale", bnScale).arg("dBnScaleResult", dBnScaleResult);
        call.arg("dBnBiasResult", dBnBiasResult).arg("epsilon", epsilon).arg("savedMean", savedMean);
        call.arg("savedInvVariance", savedInvVariance);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::batch_norm_problem_of(librednn::BatchNormPhase::backward, mode, xDesc, dyDesc,
                                                            dxDesc, dBnScaleBiasDesc, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alphaDataDiff);
        LIBREDNN_REQUIRE_NOT_NULL(betaDataDiff);
        LIBREDNN_REQUIRE_NOT_NULL(alphaParamDiff);
        LIBREDNN_REQUIRE_NOT_NULL(betaParamDiff);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        LIBREDNN_REQUIRE_NOT_NULL(bnScale);
        LIBREDNN_REQUIRE_NOT_NULL(dBnScaleResult);
        LIBREDNN_REQUIRE_NOT_NULL(dBnBiasResult);
        LIBREDNN_CHECK(
            librednn::api::optional_pair(savedMean, "savedMean", savedInvVariance, "savedInvVariance", &problem.saved));
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alphaDataDiff, in_double);
        problem.beta = librednn::read_scaling_factor(betaDataDiff, in_double);
        problem.param_alpha = librednn::read_scaling_factor(alphaParamDiff, in_double);
        problem.param_beta = librednn::read_scaling_factor(betaParamDiff, in_double);
        librednn::BatchNormBuffers buffers;
        buffers.x = x;
        buffers.dy = dy;
        buffers.result = dx;
        buffers.scale = bnScale;
        buffers.mean = savedMean;
        buffers.variance = savedInvVariance;
        buffers.dscale = dBnScaleResult;
        buffers.dbias = dBnBiasResult;
        return librednn::dispatch_and_run(librednn::batch_norm_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "batch norm");
    });
}
