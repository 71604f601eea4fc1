// The dropout rules.
#include "ops/dropout/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_dropout(const DropoutProblem &p) {
    const bool forward = p.direction == Direction::forward;
    const char *in_name = forward ? "xdesc" : "dydesc";
    const char *out_name = forward ? "ydesc" : "dxdesc";
    LIBREDNN_CHECK(require_same_type({{in_name, &p.in}, {out_name, &p.out}}));
    if (p.in.element_count() != p.out.element_count()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has %lld elements and %s %lld: dropout needs as many", in_name,
                    static_cast<long long>(p.in.element_count()), out_name,
                    static_cast<long long>(p.out.element_count()));
    }
    if (p.in_place && !same_layout(p.in, p.out)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "in place (%s and %s share memory) needs the same dims and strides: %s, %s",
                    in_name, out_name, geometry_to_string(p.in).c_str(), geometry_to_string(p.out).c_str());
    }
    if (!is_floating_point(p.in.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s holds %s: dropout takes float, double, half and bfloat16", in_name,
                    type_name(p.in.dtype));
    }
    if (!(p.probability >= 0.0f && p.probability <= 1.0f)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "the dropout probability is %.9g", static_cast<double>(p.probability));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const DropoutProblem &p, const DropoutBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    LIBREDNN_CHECK(
        require_aligned({{forward ? "x" : "dy", b.in, p.in.dtype}, {forward ? "y" : "dx", b.out, p.out.dtype}}));
    LIBREDNN_CHECK(require_space_aligned("reserveSpace", b.reserve));
    return require_space_aligned("the dropout descriptor's states", b.states);
}

}  // namespace librednn
