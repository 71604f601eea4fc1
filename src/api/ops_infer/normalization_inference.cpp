// cudnnNormalizationForwardInference: batch norm's inference (api/batch_norm_problem.hpp maps the
// cudnnNormalization* arguments), with normOps adding z and applying ReLU.
#include "api/batch_norm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/batch_norm/solvers.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnNormalizationForwardInference(
    cudnnHandle_t handle, cudnnNormMode_t mode, cudnnNormOps_t normOps, cudnnNormAlgo_t algo, const void *alpha,
    const void *beta, const cudnnTensorDescriptor_t xDesc, const void *x,
    const cudnnTensorDescriptor_t normScaleBiasDesc, const void *normScale, const void *normBias,
    const cudnnTensorDescriptor_t normMeanVarDesc, const void *estimatedMean, const void *estimatedVariance,
    const cudnnTensorDescriptor_t zDesc, const void *z, cudnnActivationDescriptor_t activationDesc,
    const cudnnTensorDescriptor_t yDesc, void *y, double epsilon, int groupCnt) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("mode", mode).arg("normOps", normOps).arg("algo", algo).arg("alpha", alpha);
        call.arg("beta", beta).arg("xDesc", xDesc).arg("x", x).arg("normScaleBiasDesc", normScaleBiasDesc);
        call.arg("normScale", normScale).arg("normBias", normBias).arg("normMeanVarDesc", normMeanVarDesc);
        call.arg("estimatedMean", estimatedMean).arg("estimatedVariance", estimatedVariance).arg("zDesc", zDesc);
        call.arg("z", z).arg("activationDesc", activationDesc).arg("yDesc", yDesc).arg("y", y);
        call.arg("epsilon", epsilon).arg("groupCnt", groupCnt);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::api::BatchNormExtras extras;
        extras.z = zDesc;
        extras.activation = activationDesc;
        librednn::BatchNormProblem problem;
        LIBREDNN_CHECK(librednn::api::normalization_problem_of(
            librednn::BatchNormPhase::inference, {mode, normOps, algo, groupCnt, normScaleBiasDesc, normMeanVarDesc},
            extras, xDesc, yDesc, nullptr, epsilon, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(normMeanVarDesc);
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(normScale);
        LIBREDNN_REQUIRE_NOT_NULL(normBias);
        LIBREDNN_REQUIRE_NOT_NULL(estimatedMean);
        LIBREDNN_REQUIRE_NOT_NULL(estimatedVariance);
        if (problem.adds()) LIBREDNN_REQUIRE_NOT_NULL(z);
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::BatchNormBuffers buffers;
        buffers.x = x;
        buffers.z = z;
        buffers.result = y;
        buffers.scale = normScale;
        buffers.bias = normBias;
        buffers.mean = estimatedMean;
        buffers.variance = estimatedVariance;
        return librednn::dispatch_and_run(librednn::batch_norm_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "normalization");
    });
}
