// Activation rules: every tensor of one float type and one shape; in place only with one layout.
#include "ops/activation/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_activation(const ActivationProblem &problem, const ActivationBuffers &buffers) {
    const NamedTensor x{"xDesc", &problem.x}, y{"yDesc", &problem.y}, dy{"dyDesc", &problem.dy},
        dx{"dxDesc", &problem.dx};
    if (problem.direction == Direction::forward) {
        LIBREDNN_CHECK(require_same_dims({x, y}));
        LIBREDNN_CHECK(require_same_type({x, y}));
    } else {
        LIBREDNN_CHECK(require_same_dims({y, dy, x, dx}));
        LIBREDNN_CHECK(require_same_type({y, dy, x, dx}));
    }
    if (!is_floating_point(problem.x.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "activations take CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF or CUDNN_DATA_BFLOAT16 "
                    "data, xDesc holds %s",
                    type_name(problem.x.dtype));
    }
    if (problem.direction == Direction::forward) return require_in_place_layout(x, buffers.x, y, buffers.result);
    return require_in_place_layout(dy, buffers.dy, dx, buffers.result);
}

Status buffer_alignment(const ActivationProblem &p, const ActivationBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    return require_aligned({{"x", b.x, p.x.dtype},
                            {"y", b.y, p.y.dtype},
                            {"dy", b.dy, p.dy.dtype},
                            {forward ? "y" : "dx", b.result, p.result().dtype}});
}

}  // namespace librednn
