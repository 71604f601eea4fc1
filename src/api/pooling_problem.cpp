// Pooling descriptors to a validated problem.
#include "api/pooling_problem.hpp"

#include "api/from_descriptors.hpp"
#include "ops/pooling/validate.hpp"

namespace librednn::api {

Status pooling_problem_of(Direction direction, const cudnnPoolingStruct *pooling, const cudnnTensorStruct *x,
                          const cudnnTensorStruct *y, const cudnnTensorStruct *dy, const cudnnTensorStruct *dx,
                          PoolingProblem *problem) {
    if (pooling == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "poolingDesc is NULL");
    LIBREDNN_CHECK(require_pooling_set(*pooling, "poolingDesc"));
    LIBREDNN_CHECK(require_tensor_set(x, "xDesc"));
    LIBREDNN_CHECK(require_tensor_set(y, "yDesc"));
    PoolingProblem p;
    p.direction = direction;
    p.mode = pooling->mode;
    p.nan_opt = pooling->nan_opt;
    p.spatial_dims = pooling->nb_dims;
    for (int i = 0; i < pooling->nb_dims; ++i) {
        p.window[i] = pooling->window[i];
        p.pad[i] = pooling->padding[i];
        p.stride[i] = pooling->stride[i];
    }
    p.x = geometry_of(*x);
    p.y = geometry_of(*y);
    if (direction == Direction::backward) {
        LIBREDNN_CHECK(require_tensor_set(dy, "dyDesc"));
        LIBREDNN_CHECK(require_tensor_set(dx, "dxDesc"));
        p.dy = geometry_of(*dy);
        p.dx = geometry_of(*dx);
    }
    LIBREDNN_CHECK(validate_pooling(p));
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
