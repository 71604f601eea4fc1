// cudnnLRNCrossChannelForward: y = alpha * x / (k + lrnAlpha / n * (window sum of x^2))^lrnBeta + beta * y.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/lrn_problem.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/lrn/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnLRNCrossChannelForward(cudnnHandle_t handle, cudnnLRNDescriptor_t normDesc,
                                                      cudnnLRNMode_t lrnMode, const void *alpha,
                                                      const cudnnTensorDescriptor_t xDesc, const void *x,
                                                      const void *beta, const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("normDesc", normDesc).arg("lrnMode", lrnMode).arg("alpha", alpha);
        call.arg("xDesc", xDesc).arg("x", x).arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::LrnProblem problem;
        LIBREDNN_CHECK(librednn::api::lrn_problem_of(librednn::Direction::forward, normDesc, lrnMode, xDesc, yDesc,
                                                     nullptr, nullptr, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.in_place = x == y;
        librednn::LrnBuffers buffers;
        buffers.x = x;
        buffers.result = y;
        return librednn::dispatch_and_run(librednn::lrn_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "LRN");
    });
}
