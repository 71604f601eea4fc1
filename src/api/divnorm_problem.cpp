// Divisive normalisation descriptors to a validated problem.
#include "api/divnorm_problem.hpp"

#include "api/from_descriptors.hpp"
#include "ops/divnorm/validate.hpp"

namespace librednn::api {

Status divnorm_problem_of(Direction direction, const cudnnLRNStruct *norm, cudnnDivNormMode_t mode,
                          const cudnnTensorStruct *x, const cudnnTensorStruct *out, DivNormProblem *problem) {
    const bool forward = direction == Direction::forward;
    if (norm == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "normDesc is NULL");
    if (mode != CUDNN_DIVNORM_PRECOMPUTED_MEANS) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "mode is %d; only CUDNN_DIVNORM_PRECOMPUTED_MEANS (0) is implemented",
                    static_cast<int>(mode));
    }
    LIBREDNN_CHECK(require_tensor_set(x, "xDesc"));
    LIBREDNN_CHECK(require_tensor_set(out, forward ? "yDesc" : "dXdMeansDesc"));
    DivNormProblem p;
    p.direction = direction;
    p.n = norm->n;
    p.lrn_alpha = norm->alpha;
    p.lrn_beta = norm->beta;
    p.lrn_k = norm->k;
    p.x = geometry_of(*x);
    (forward ? p.y : p.dx) = geometry_of(*out);
    LIBREDNN_CHECK(validate_divnorm(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
