// LRN descriptors to a validated problem.
#include "api/lrn_problem.hpp"

#include "api/from_descriptors.hpp"
#include "ops/lrn/validate.hpp"

namespace librednn::api {

Status lrn_problem_of(Direction direction, const cudnnLRNStruct *lrn, cudnnLRNMode_t mode, const cudnnTensorStruct *x,
                      const cudnnTensorStruct *y, const cudnnTensorStruct *dy, const cudnnTensorStruct *dx,
                      LrnProblem *problem) {
    if (lrn == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "normDesc is NULL");
    if (mode != CUDNN_LRN_CROSS_CHANNEL_DIM1) {
        return fail(CUDNN_STATUS_BAD_PARAM, "lrnMode is %d, must be CUDNN_LRN_CROSS_CHANNEL_DIM1",
                    static_cast<int>(mode));
    }
    LIBREDNN_CHECK(require_tensor_set(x, "xDesc"));
    LIBREDNN_CHECK(require_tensor_set(y, "yDesc"));
    LrnProblem p;
    p.direction = direction;
    p.n = lrn->n;
    p.lrn_alpha = lrn->alpha;
    p.lrn_beta = lrn->beta;
    p.lrn_k = lrn->k;
    p.x = geometry_of(*x);
    p.y = geometry_of(*y);
    if (direction == Direction::backward) {
        LIBREDNN_CHECK(require_tensor_set(dy, "dyDesc"));
        LIBREDNN_CHECK(require_tensor_set(dx, "dxDesc"));
        p.dy = geometry_of(*dy);
        p.dx = geometry_of(*dx);
    }
    LIBREDNN_CHECK(validate_lrn(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
