// cudnnPoolingForward: y = alpha * pool(x) + beta * y.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/pooling_problem.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/pooling/solvers.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnPoolingForward(cudnnHandle_t handle, const cudnnPoolingDescriptor_t poolingDesc,
                                              const void *alpha, const cudnnTensorDescriptor_t xDesc, const void *x,
                                              const void *beta, const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("poolingDesc", poolingDesc).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x);
        call.arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::PoolingProblem problem;
        LIBREDNN_CHECK(librednn::api::pooling_problem_of(librednn::Direction::forward, poolingDesc, xDesc, yDesc,
                                                         nullptr, nullptr, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        const bool in_double = problem.x.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::PoolingBuffers buffers;
        buffers.x = x;
        buffers.result = y;
        return librednn::dispatch_and_run(librednn::pooling_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "pooling");
    });
}
