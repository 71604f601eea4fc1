// Batch-norm descriptors to a validated problem.
#include "api/batch_norm_problem.hpp"

#include "api/from_descriptors.hpp"
#include "ops/batch_norm/validate.hpp"

namespace librednn::api {

Status batch_norm_problem_of(BatchNormPhase phase, cudnnBatchNormMode_t mode, const cudnnTensorStruct *x,
                             const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
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
