// cudnnDivisiveNormalizationBackward: dx = alpha * dL/dx + beta * dx and dMeans = alpha * dL/dmeans +
// beta * dMeans, the gradients of the forward at x and means applied to dy (src/reference/divisive_norm.hpp).
// dMeans may be NULL (not written), means NULL (zeros).
#include "api/divnorm_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/divnorm/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnDivisiveNormalizationBackward(
    cudnnHandle_t handle, cudnnLRNDescriptor_t normDesc, cudnnDivNormMode_t mode, const void *alpha,
    const cudnnTensorDescriptor_t xDesc, const void *x, const void *means, const void *dy, void *temp, void *temp2,
    const void *beta, const cudnnTensorDescriptor_t dXdMeansDesc, void *dx, void *dMeans) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("normDesc", normDesc).arg("mode", mode).arg("alpha", alpha);
        call.arg("xDesc", xDesc).arg("x", x).arg("means", means).arg("dy", dy).arg("temp", temp).arg("temp2", temp2);
        call.arg("beta", beta).arg("dXdMeansDesc", dXdMeansDesc).arg("dx", dx).arg("dMeans", dMeans);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::DivNormProblem problem;
        LIBREDNN_CHECK(librednn::api::divnorm_problem_of(librednn::Direction::backward, normDesc, mode, xDesc,
                                                         dXdMeansDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(temp);
        LIBREDNN_REQUIRE_NOT_NULL(temp2);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        if (dMeans == dx) {
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "dx and dMeans are the same memory: they are two outputs");
        }
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.means = means != nullptr;
        problem.d_means = dMeans != nullptr;
        auto is_output = [&](const void *input) { return input != nullptr && (input == dx || input == dMeans); };
        problem.in_place = is_output(x) || is_output(means) || is_output(dy);
        librednn::DivNormBuffers buffers;
        buffers.x = x;
        buffers.means = means;
        buffers.dy = dy;
        buffers.temp = temp;
        buffers.temp2 = temp2;
        buffers.result = dx;
        buffers.d_means = dMeans;
        return librednn::dispatch_and_run(librednn::divnorm_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "divisive normalisation");
    });
}
