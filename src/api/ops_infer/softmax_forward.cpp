// cudnnSoftmaxForward: y = alpha * softmax(x) + beta * y (FAST, ACCURATE or LOG; INSTANCE or CHANNEL).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/softmax/solvers.hpp"
#include "ops/softmax/validate.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnSoftmaxForward(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo,
                                              cudnnSoftmaxMode_t mode, const void *alpha,
                                              const cudnnTensorDescriptor_t xDesc, const void *x, const void *beta,
                                              const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("algo", algo).arg("mode", mode).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x);
        call.arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(yDesc, "yDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);

        librednn::SoftmaxProblem problem;
        problem.direction = librednn::Direction::forward;
        problem.algorithm = algo;
        problem.mode = mode;
        problem.x = librednn::geometry_of(*xDesc);
        problem.y = librednn::geometry_of(*yDesc);
        librednn::SoftmaxBuffers buffers;
        buffers.x = x;
        buffers.result = y;
        LIBREDNN_CHECK(librednn::validate_softmax(problem, buffers));
        // Read the scaling factors only now: their type (float or double) follows the validated data.
        const bool in_double = yDesc->data_type == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        return librednn::dispatch_and_run(librednn::softmax_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "softmax");
    });
}
