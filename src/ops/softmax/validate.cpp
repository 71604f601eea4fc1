// Softmax rules: a known algorithm and mode, every tensor of one float type and one shape, in place
// only with one layout.
#include "ops/softmax/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_softmax(const SoftmaxProblem &problem, const SoftmaxBuffers &buffers) {
    if (softmax_algorithm_name(problem.algorithm) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "algo is %d, must be CUDNN_SOFTMAX_FAST, CUDNN_SOFTMAX_ACCURATE or CUDNN_SOFTMAX_LOG",
                    static_cast<int>(problem.algorithm));
    }
    if (softmax_mode_name(problem.mode) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "mode is %d, must be CUDNN_SOFTMAX_MODE_INSTANCE or CUDNN_SOFTMAX_MODE_CHANNEL",
                    static_cast<int>(problem.mode));
    }
    const NamedTensor x{"xDesc", &problem.x}, y{"yDesc", &problem.y}, dy{"dyDesc", &problem.dy},
        dx{"dxDesc", &problem.dx};
    if (problem.direction == Direction::forward) {
        LIBREDNN_CHECK(require_same_dims({x, y}));
        LIBREDNN_CHECK(require_same_type({x, y}));
    } else {
        LIBREDNN_CHECK(require_same_dims({y, dy, dx}));
        LIBREDNN_CHECK(require_same_type({y, dy, dx}));
    }
    const TensorGeometry &out = problem.result();
    if (!is_floating_point(out.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "softmax takes CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF or CUDNN_DATA_BFLOAT16 data, "
                    "got %s",
                    type_name(out.dtype));
    }
    if (problem.direction == Direction::forward) return require_in_place_layout(x, buffers.x, y, buffers.result);
    return require_in_place_layout(dy, buffers.dy, dx, buffers.result);
}

Status buffer_alignment(const SoftmaxProblem &p, const SoftmaxBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    return require_aligned({{"x", b.x, p.x.dtype},
                            {"y", b.y, p.y.dtype},
                            {"dy", b.dy, p.dy.dtype},
                            {forward ? "y" : "dx", b.result, (forward ? p.y : p.dx).dtype}});
}

}  // namespace librednn
