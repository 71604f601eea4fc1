// The pooling rules.
#include "ops/pooling/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

namespace {

Status same_dims_as(const TensorGeometry &a, const char *a_name, const TensorGeometry &b, const char *b_name) {
    if (same_dims(a, b)) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s and %s %s: they must have the same dims", a_name,
                join_dims(a.dims, a.nb_dims).c_str(), b_name, join_dims(b.dims, b.nb_dims).c_str());
}

}  // namespace

Status validate_pooling(const PoolingProblem &p) {
    const bool forward = p.direction == Direction::forward;
    if (p.x.nb_dims != p.y.nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc has %d dims and yDesc %d: they must have as many", p.x.nb_dims,
                    p.y.nb_dims);
    }
    if (p.x.nb_dims != p.spatial_dims + 2) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "poolingDesc has %d spatial dims and xDesc %d dims: pooling over n dims takes tensors of n + 2",
                    p.spatial_dims, p.x.nb_dims);
    }
    int64_t expected[kMaxDims];
    pooling_output_dims(p, p.x.dims, expected);
    for (int i = 0; i < p.spatial_dims; ++i) {
        if (expected[i + 2] < 1) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "along spatial dim %d the window %lld is larger than xDesc's padded extent %lld (%lld + 2 x "
                        "pad %lld)",
                        i, static_cast<long long>(p.window[i]), static_cast<long long>(p.x.dims[i + 2] + 2 * p.pad[i]),
                        static_cast<long long>(p.x.dims[i + 2]), static_cast<long long>(p.pad[i]));
        }
    }
    for (int i = 0; i < p.x.nb_dims; ++i) {
        if (p.y.dims[i] != expected[i]) {
            return fail(CUDNN_STATUS_BAD_PARAM, "yDesc is %s, but pooling xDesc %s gives %s",
                        join_dims(p.y.dims, p.y.nb_dims).c_str(), join_dims(p.x.dims, p.x.nb_dims).c_str(),
                        join_dims(expected, p.x.nb_dims).c_str());
        }
    }
    if (!forward) {
        LIBREDNN_CHECK(same_dims_as(p.dy, "dyDesc", p.y, "yDesc"));
        LIBREDNN_CHECK(same_dims_as(p.dx, "dxDesc", p.x, "xDesc"));
    }
    const TensorGeometry *tensors[] = {&p.x, &p.y, &p.dy, &p.dx};
    const char *names[] = {"xDesc", "yDesc", "dyDesc", "dxDesc"};
    for (int i = 0; i < (forward ? 2 : 4); ++i) {
        if (tensors[i]->dtype != p.x.dtype) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s and xDesc %s: pooling takes one data type", names[i],
                        type_name(tensors[i]->dtype), type_name(p.x.dtype));
        }
    }
    if (!is_floating_point(p.x.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "xDesc holds %s: pooling takes float, double, half and bfloat16 data",
                    type_name(p.x.dtype));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const PoolingProblem &p, const PoolingBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    return require_aligned({{"x", b.x, p.x.dtype},
                            {"y", b.y, p.y.dtype},
                            {"dy", b.dy, p.dy.dtype},
                            {forward ? "y" : "dx", b.result, p.result().dtype}});
}

}  // namespace librednn
