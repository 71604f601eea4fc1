// cudnnBatchNormalizationForwardTraining: y = alpha * (scale * x_hat + bias) + beta * y with this batch's
// statistics; updates the running mean and (unbiased) variance by exponentialAverageFactor and saves the
// mean and inverse standard deviation for the backward pass, each pair when given.
#include "api/batch_norm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/batch_norm/solvers.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnBatchNormalizationForwardTraining(
    cudnnHandle_t handle, cudnnBatchNormMode_t mode, const void *alpha, const void *beta,
    const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t yDesc, void *y,
    const cudnnTensorDescriptor_t bnScaleBiasMeanVarDesc, const void *bnScale, const void *bnBias,
    double exponentialAverageFactor, void *resultRunningMean, void *resultRunningVariance, double epsilon,
    void *resultSaveMean, void *resultSaveInvVariance) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("alpha", alpha).arg("beta", beta).arg("xDesc", xDesc).arg("x", x);
        call.arg("yDesc", yDesc).arg("y", y).arg("bnScaleBiasMeanVarDesc", bnScaleBiasMeanVarDesc);
        call.arg("bnScale", bnScale).arg("bnBias", bnBias).arg("exponentialAverageFactor", exponentialAverageFactor);
        call.arg("resultRunningMean", resultRunningMean).arg("resultRunningVariance", resultRunningVariance);
        call.arg("epsilon", epsilon).arg("resultSaveMean", resultSaveMean);
        call.arg("resultSaveInvVariance", resultSaveInvVariance);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::batch_norm_problem_of(librednn::BatchNormPhase::training, mode, xDesc, yDesc,
                                                            nullptr, bnScaleBiasMeanVarDesc, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(bnScale);
        LIBREDNN_REQUIRE_NOT_NULL(bnBias);
        LIBREDNN_CHECK(librednn::api::optional_pair(resultRunningMean, "resultRunningMean", resultRunningVariance,
                                                    "resultRunningVariance", &problem.running));
        LIBREDNN_CHECK(librednn::api::optional_pair(resultSaveMean, "resultSaveMean", resultSaveInvVariance,
                                                    "resultSaveInvVariance", &problem.saved));
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.factor = exponentialAverageFactor;
        librednn::BatchNormBuffers buffers;
        buffers.x = x;
        buffers.result = y;
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
