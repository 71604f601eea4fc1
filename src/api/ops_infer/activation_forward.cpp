// cudnnActivationForward: y = alpha * f(x) + beta * y.
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "descriptors/activation.hpp"
#include "ops/activation/solvers.hpp"
#include "ops/activation/validate.hpp"
#include "ops/common/dispatch.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnActivationForward(cudnnHandle_t handle, cudnnActivationDescriptor_t activationDesc,
                                                 const void *alpha, const cudnnTensorDescriptor_t xDesc, const void *x,
                                                 const void *beta, const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("activationDesc", activationDesc).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x);
        call.arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(activationDesc);
        LIBREDNN_CHECK(librednn::require_activation_set(*activationDesc, "activationDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(xDesc, "xDesc"));
        LIBREDNN_CHECK(librednn::require_tensor_set(yDesc, "yDesc"));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);

        librednn::ActivationProblem problem;
        problem.direction = librednn::Direction::forward;
        problem.mode = activationDesc->mode;
        problem.nan_opt = activationDesc->nan_opt;
        problem.coef = activationDesc->coef;
        problem.swish_beta = activationDesc->swish_beta;
        problem.x = librednn::geometry_of(*xDesc);
        problem.y = librednn::geometry_of(*yDesc);
        librednn::ActivationBuffers buffers;
        buffers.x = x;
        buffers.result = y;
        LIBREDNN_CHECK(librednn::validate_activation(problem, buffers));
        // Read the scaling factors only now: their type (float or double) follows the validated data.
        const bool in_double = xDesc->data_type == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        return librednn::dispatch_and_run(librednn::activation_solvers(), librednn::context_of(*handle), problem,
                                          buffers, "activation");
    });
}
