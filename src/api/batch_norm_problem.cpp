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

Status normalization_problem_of(BatchNormPhase phase, const NormalizationCall &call, BatchNormExtras extras,
                                const cudnnTensorStruct *x, const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                                double epsilon, BatchNormProblem *problem) {
    if (call.mode != CUDNN_NORM_PER_ACTIVATION && call.mode != CUDNN_NORM_PER_CHANNEL) {
        return fail(CUDNN_STATUS_BAD_PARAM, "mode is %d, must be CUDNN_NORM_PER_ACTIVATION or CUDNN_NORM_PER_CHANNEL",
                    static_cast<int>(call.mode));
    }
    if (call.algo != CUDNN_NORM_ALGO_STANDARD && call.algo != CUDNN_NORM_ALGO_PERSIST) {
        return fail(CUDNN_STATUS_BAD_PARAM, "algo is %d, must be CUDNN_NORM_ALGO_STANDARD or CUDNN_NORM_ALGO_PERSIST",
                    static_cast<int>(call.algo));
    }
    if (call.ops != CUDNN_NORM_OPS_NORM && call.ops != CUDNN_NORM_OPS_NORM_ACTIVATION &&
        call.ops != CUDNN_NORM_OPS_NORM_ADD_ACTIVATION) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "normOps is %d, must be CUDNN_NORM_OPS_NORM, CUDNN_NORM_OPS_NORM_ACTIVATION or "
                    "CUDNN_NORM_OPS_NORM_ADD_ACTIVATION",
                    static_cast<int>(call.ops));
    }
    if (call.group_count < 1) return fail(CUDNN_STATUS_BAD_PARAM, "groupCnt is %d, must be positive", call.group_count);
    if (call.group_count != 1) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "groupCnt is %d; cuDNN 8.9 supports only 1", call.group_count);
    }
    const char *scale_name = phase == BatchNormPhase::backward ? "dNormScaleBiasDesc" : "normScaleBiasDesc";
    LIBREDNN_CHECK(require_tensor_set(call.scale_bias, scale_name));
    if (call.mean_var != nullptr) {
        LIBREDNN_CHECK(require_tensor_set(call.mean_var, "normMeanVarDesc"));
        const TensorGeometry a = geometry_of(*call.scale_bias), b = geometry_of(*call.mean_var);
        bool alike = a.dtype == b.dtype && a.nb_dims == b.nb_dims;
        for (int i = 0; alike && i < a.nb_dims; ++i) alike = a.dims[i] == b.dims[i] && a.strides[i] == b.strides[i];
        if (!alike) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "normMeanVarDesc (%s) differs from %s (%s); LibreDNN takes them alike, as "
                        "cudnnDeriveNormTensorDescriptor derives them",
                        tensor_to_string(*call.mean_var).c_str(), scale_name,
                        tensor_to_string(*call.scale_bias).c_str());
        }
    }
    const cudnnBatchNormMode_t mode = call.mode == CUDNN_NORM_PER_ACTIVATION ? CUDNN_BATCHNORM_PER_ACTIVATION
                                      : call.algo == CUDNN_NORM_ALGO_PERSIST ? CUDNN_BATCHNORM_SPATIAL_PERSISTENT
                                                                             : CUDNN_BATCHNORM_SPATIAL;
    extras.ops = static_cast<cudnnBatchNormOps_t>(call.ops);
    return batch_norm_ex_problem_of(phase, mode, extras, x, y, dx, call.scale_bias, epsilon, problem);
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
