// cudnnPoolingBackward: dx = alpha * (dy routed back through the pooling of x) + beta * dx. The max
// modes find each window's maximum in x; y is checked for its dims only.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/pooling_problem.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/pooling/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnPoolingBackward(cudnnHandle_t handle, const cudnnPoolingDescriptor_t poolingDesc,
                                               const void *alpha, const cudnnTensorDescriptor_t yDesc, const void *y,
                                               const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                               const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                               const cudnnTensorDescriptor_t dxDesc, void *dx) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("poolingDesc", poolingDesc).arg("alpha", alpha).arg("yDesc", yDesc).arg("y", y);
        call.arg("dyDesc", dyDesc).arg("dy", dy).arg("xDesc", xDesc).arg("x", x).arg("beta", beta);
        call.arg("dxDesc", dxDesc).arg("dx", dx);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::PoolingProblem problem;
        LIBREDNN_CHECK(librednn::api::pooling_problem_of(librednn::Direction::backward, poolingDesc, xDesc, yDesc,
                                                         dyDesc, dxDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        if (problem.is_max()) LIBREDNN_REQUIRE_NOT_NULL(x);
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::PoolingBuffers buffers;
        buffers.x = x;
        buffers.y = y;
        buffers.dy = dy;
        buffers.result = dx;
        return librednn::dispatch_and_run(librednn::pooling_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "pooling");
    });
}
