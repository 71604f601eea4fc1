// The spatial transformer rules.
#include "ops/spatial_tf/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

namespace {

Status require_type(const char *name, const TensorGeometry &tensor, cudnnDataType_t type) {
    if (tensor.dtype == type) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s and stDesc %s: they must have the same data type", name,
                type_name(tensor.dtype), type_name(type));
}

// `tensor` must have exactly `dims` (4 of them); `what` says where they come from.
Status require_dims(const char *name, const TensorGeometry &tensor, const int64_t *dims, const char *what) {
    bool same = tensor.nb_dims == 4;
    for (int i = 0; same && i < 4; ++i) same = tensor.dims[i] == dims[i];
    if (same) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s, must be %s (%s)", name,
                join_dims(tensor.dims, tensor.nb_dims).c_str(), join_dims(dims, 4).c_str(), what);
}

}  // namespace

Status validate_spatial_tf(const SpatialTfProblem &p) {
    if (!is_floating_point(p.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "stDesc holds %s: spatial transformers take float, double, half and bfloat16", type_name(p.dtype));
    }
    if (p.stage == SpatialTfStage::grid) return CUDNN_STATUS_SUCCESS;
    const int64_t output[4] = {p.n, p.c, p.h, p.w};
    if (p.x.nb_dims != 4) {
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc has %d dims; the sampler takes 4 (N, C, H, W)", p.x.nb_dims);
    }
    if (p.x.dims[0] != p.n || p.x.dims[1] != p.c) {
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc is %s and stDesc %s: they must have the same N and C",
                    join_dims(p.x.dims, 4).c_str(), join_dims(output, 4).c_str());
    }
    LIBREDNN_CHECK(require_type("xDesc", p.x, p.dtype));
    if (p.direction == Direction::forward) {
        LIBREDNN_CHECK(require_dims("yDesc", p.y, output, "stDesc's dims"));
        return require_type("yDesc", p.y, p.dtype);
    }
    LIBREDNN_CHECK(require_dims("dyDesc", p.dy, output, "stDesc's dims"));
    LIBREDNN_CHECK(require_type("dyDesc", p.dy, p.dtype));
    LIBREDNN_CHECK(require_dims("dxDesc", p.dx, p.x.dims, "xDesc's dims"));
    return require_type("dxDesc", p.dx, p.dtype);
}

Status buffer_alignment(const SpatialTfProblem &p, const SpatialTfBuffers &b) {
    const cudnnDataType_t type = p.dtype;
    return require_aligned({{"theta", b.theta, type},
                            {"dgrid", b.dgrid, type},
                            {"x", b.x, p.x.dtype},
                            {"grid", b.grid, type},
                            {"dy", b.dy, p.dy.dtype},
                            {"grid", b.grid_out, type},
                            {"dtheta", b.dtheta, type},
                            {"y", b.y, p.y.dtype},
                            {"dx", b.dx, p.dx.dtype},
                            {"dgrid", b.dgrid_out, type}});
}

}  // namespace librednn
