// Dropout descriptors to a validated problem.
#include "api/dropout_problem.hpp"

#include "api/from_descriptors.hpp"
#include "ops/dropout/validate.hpp"

namespace librednn::api {

Status dropout_problem_of(Direction direction, const cudnnDropoutStruct *dropout, const cudnnTensorStruct *in,
                          const void *in_data, const cudnnTensorStruct *out, const void *out_data, size_t reserve_bytes,
                          DropoutProblem *problem) {
    const bool forward = direction == Direction::forward;
    if (dropout == nullptr) return fail(CUDNN_STATUS_BAD_PARAM, "dropoutDesc is NULL");
    LIBREDNN_CHECK(require_dropout_set(*dropout, "dropoutDesc"));
    if (dropout->states == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "dropoutDesc has no states: cudnnSetDropoutDescriptor was called with states NULL");
    }
    LIBREDNN_CHECK(require_tensor_set(in, forward ? "xdesc" : "dydesc"));
    LIBREDNN_CHECK(require_tensor_set(out, forward ? "ydesc" : "dxdesc"));
    DropoutProblem p;
    p.direction = direction;
    p.in = geometry_of(*in);
    p.out = geometry_of(*out);
    p.probability = dropout->probability;
    p.in_place = in_data != nullptr && in_data == out_data;
    LIBREDNN_CHECK(validate_dropout(p));
    const auto needed = static_cast<size_t>(p.in.element_count());
    if (reserve_bytes < needed) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "reserveSpaceSizeInBytes is %zu, the mask needs %zu (cudnnDropoutGetReserveSpaceSize)",
                    reserve_bytes, needed);
    }
    *problem = p;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
