// The LRN rules.
#include "ops/lrn/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_lrn(const LrnProblem &p) {
    if (p.x.nb_dims < 3) {
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc has %d dims; LRN takes N, C and spatial dims", p.x.nb_dims);
    }
    if (p.direction == Direction::forward) {
        LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"yDesc", &p.y}}));
        LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"yDesc", &p.y}}));
    } else {
        LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"yDesc", &p.y}, {"dyDesc", &p.dy}, {"dxDesc", &p.dx}}));
        LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"yDesc", &p.y}, {"dyDesc", &p.dy}, {"dxDesc", &p.dx}}));
    }
    if (!is_floating_point(p.x.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "xDesc holds %s: LRN takes float, double, half and bfloat16",
                    type_name(p.x.dtype));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const LrnProblem &p, const LrnBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    return require_aligned({{"x", b.x, p.x.dtype},
                            {"dy", b.dy, p.dy.dtype},
                            {forward ? "y" : "dx", b.result, (forward ? p.y : p.dx).dtype}});
}

}  // namespace librednn
