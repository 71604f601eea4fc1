// cudnnDivisiveNormalizationForward: y = alpha * x / (k + lrnAlpha / n^d * (window sum of (x - means)^2))^lrnBeta
// + beta * y, with the means at y's own position (src/reference/divisive_norm.hpp).
#include "api/divnorm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/divnorm/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnDivisiveNormalizationForward(cudnnHandle_t handle, cudnnLRNDescriptor_t normDesc,
                                                            cudnnDivNormMode_t mode, const void *alpha,
                                                            const cudnnTensorDescriptor_t xDesc, const void *x,
                                                            const void *means, void *temp, void *temp2,
                                                            const void *beta, const cudnnTensorDescriptor_t yDesc,
                                                            void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("normDesc", normDesc).arg("mode", mode).arg("alpha", alpha);
        call.arg("xDesc", xDesc).arg("x", x).arg("means", means).arg("temp", temp).arg("temp2", temp2);
        call.arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::DivNormProblem problem;
        LIBREDNN_CHECK(
            librednn::api::divnorm_problem_of(librednn::Direction::forward, normDesc, mode, xDesc, yDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(temp);
        LIBREDNN_REQUIRE_NOT_NULL(temp2);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        // cuDNN documents BAD_PARAM for x == y with different strides (means has x's descriptor too).
        LIBREDNN_CHECK(librednn::require_in_place_layout({"xDesc", &problem.x}, x, {"yDesc", &problem.y}, y));
        LIBREDNN_CHECK(
            librednn::require_in_place_layout({"xDesc (means)", &problem.x}, means, {"yDesc", &problem.y}, y));
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.means = means != nullptr;
        problem.in_place = y == x || y == means;
        librednn::DivNormBuffers buffers;
        buffers.x = x;
        buffers.means = means;
        buffers.temp = temp;
        buffers.temp2 = temp2;
        buffers.result = y;
        return librednn::dispatch_and_run(librednn::divnorm_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "divisive normalisation");
    });
}
