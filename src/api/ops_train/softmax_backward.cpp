// cudnnSoftmaxBackward: dx = alpha * (gradient of the softmax at y, applied to dy) + beta * dx.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/softmax/solvers.hpp"
#include "ops/softmax/validate.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnSoftmaxBackward(cudnnHandle_t handle, cudnnSoftmaxAlgorithm_t algo,
                                               cudnnSoftmaxMode_t mode, const void *alpha,
                                               const cudnnTensorDescriptor_t yDesc, const void *y,
                                               const cudnnTensorDescriptor_t dyDesc, const void *dy, const void *beta,
                                               const cudnnTensorDescriptor_t dxDesc, void *dx) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("algo", algo).arg("mode", mode).arg("alpha", alpha).arg("yDesc", yDesc).arg("y", y);
        call.arg("dyDesc", dyDesc).arg("dy", dy).arg("beta", beta).arg("dxDesc", dxDesc).arg("dx", dx);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(librednn::require_tensor_set(yDesc, "yDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(dyDesc, "dyDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(dxDesc, "dxDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);

        librednn::SoftmaxProblem problem;
        problem.direction = librednn::Direction::backward;
        problem.algorithm = algo;
        problem.mode = mode;
        problem.y = librednn::geometry_of(*yDesc);
        problem.dy = librednn::geometry_of(*dyDesc);
        problem.dx = librednn::geometry_of(*dxDesc);
        librednn::SoftmaxBuffers buffers;
        buffers.y = y;
        buffers.dy = dy;
        buffers.result = dx;
        LIBREDNN_CHECK(librednn::validate_softmax(problem, buffers));
        // Read the scaling factors only now: their type (float or double) follows the validated data.
        const bool in_double = dxDesc->data_type == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        return librednn::dispatch_and_run(librednn::softmax_solvers(), librednn::context_of(*handle), problem, buffers,
                                          "softmax");
    });
}
