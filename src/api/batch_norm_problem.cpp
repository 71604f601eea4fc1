// Batch-norm descriptors to a validated problem.
#include "api/batch_norm_problem.hpp"

#include "api/from_descriptors.hpp"
#include "ops/batch_norm/validate.hpp"

namespace librednn::api {

Status batch_norm_problem_of(BatchNormPhase phase, cudnnBatchNormMode_t mode, const cudnnTensorStruct *x,
                             const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                             const cudnnTensorStruct *parameters, double epsilon, BatchNormProblem *problem) {
    return batch_norm_ex_problem_of(phase, mode, BatchNormExtras(), x, y, dx, parameters, epsilon, problem);
}

Status batch_norm_ex_problem_of(BatchNormPhase phase, cudnnBatchNormMode_t mode, const BatchNormExtras &extras,
                                const cudnnTensorStruct *x, const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                                const cudnnTensorStruct *parameters, double epsilon, BatchNormProblem *problem) {
    const bool backward = phase == BatchNormPhase::backward;
    LIBREDNN_CHECK(require_tensor_set(x, "xDesc"));
    LIBREDNN_CHECK(require_tensor_set(y, backward ? "dyDesc" : "yDesc"));
    if (backward) LIBREDNN_CHECK(require_tensor_set(dx, "dxDesc"));
    LIBREDNN_CHECK(require_tensor_set(parameters, backward ? "dBnScaleBiasDesc" : "bnScaleBiasMeanVarDesc"));
    BatchNormProblem p;
    p.phase = phase;
    p.mode = mode;
    p.x = geometry_of(*x);
    if (backward) {
        p.dy = geometry_of(*y);
        p.dx = geometry_of(*dx);
    } else {
        p.y = geometry_of(*y);
    }
    p.parameters = geometry_of(*parameters);
    p.epsilon = epsilon;
    p.ops = extras.ops;
    if (p.activation() && batch_norm_ops_name(p.ops) != nullptr) {
        if (extras.activation == nullptr) {
            return fail(CUDNN_STATUS_BAD_PARAM, "activationDesc is NULL; bnOps %s needs one (ReLU)",
                        batch_norm_ops_name(p.ops));
        }
        LIBREDNN_CHECK(require_activation_set(*extras.activation, "activationDesc"));
        if (extras.activation->mode != CUDNN_ACTIVATION_RELU) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "activationDesc's mode is %d; batch norm fuses CUDNN_ACTIVATION_RELU only",
                        static_cast<int>(extras.activation->mode));
        }
        if (backward) {
            LIBREDNN_CHECK(require_tensor_set(extras.forward_y, "yDesc"));
            p.y = geometry_of(*extras.forward_y);
        }
        if (p.adds()) {
            LIBREDNN_CHECK(require_tensor_set(extras.z, backward ? "dzDesc" : "zDesc"));
            p.z = geometry_of(*extras.z);
        }
    }
    LIBREDNN_CHECK(validate_batch_norm(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

Status optional_pair(const void *first, const char *first_name, const void *second, const char *second_name,
                     bool *given) {
    if ((first == nullptr) != (second == nullptr)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s but %s is %s: give both or neither", first_name,
                    first ? "given" : "NULL", second_name, second ? "given" : "NULL");
    }
    *given = first != nullptr;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
