// cudnnLRNCrossChannelBackward: dx = alpha * (the gradient of the LRN forward at x, applied to dy)
// + beta * dx. y is checked for its dims; the gradient is computed from x.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/lrn_problem.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/lrn/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnLRNCrossChannelBackward(cudnnHandle_t handle, cudnnLRNDescriptor_t normDesc,
                                                       cudnnLRNMode_t lrnMode, const void *alpha,
                                                       const cudnnTensorDescriptor_t yDesc, const void *y,
                                                       const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                                       const cudnnTensorDescriptor_t xDesc, const void *x,
                                                       const void *beta, const cudnnTensorDescriptor_t dxDesc,
                                                       void *dx) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("normDesc", normDesc).arg("lrnMode", lrnMode).arg("alpha", alpha);
        call.arg("yDesc", yDesc).arg("y", y).arg("dyDesc", dyDesc).arg("dy", dy).arg("xDesc", xDesc).arg("x", x);
        call.arg("beta", beta).arg("dxDesc", dxDesc).arg("dx", dx);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::LrnProblem problem;
        LIBREDNN_CHECK(librednn::api::lrn_problem_of(librednn::Direction::backward, normDesc, lrnMode, xDesc, yDesc,
                                                     dyDesc, dxDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.in_place = dx == dy || dx == x;
        librednn::LrnBuffers buffers;
        buffers.x = x;
        buffers.dy = dy;
        buffers.result = dx;
        return librednn::dispatch_and_run(librednn::lrn_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "LRN");
    });
}
