// cudnnAddTensor rules: A broadcasts to C (each dim C's or 1), one floating-point type, up to 5 dims.
#include "ops/tensor/add_tensor_validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_add_tensor(const AddTensorProblem &problem) {
    const TensorGeometry &a = problem.a, &c = problem.c;
    if (!broadcasts_to(a, c)) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "aDesc is %s and cDesc is %s: each dim of A must be C's or 1 (and both need as many dims)",
                    join_dims(a.dims, a.nb_dims).c_str(), join_dims(c.dims, c.nb_dims).c_str());
    }
    if (a.dtype != c.dtype) {
        return fail(CUDNN_STATUS_BAD_PARAM, "aDesc holds %s and cDesc holds %s: they must have the same data type",
                    type_name(a.dtype), type_name(c.dtype));
    }
    if (c.nb_dims > 5) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "cDesc has %d dims: cudnnAddTensor supports up to 5", c.nb_dims);
    }
    if (!is_floating_point(c.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "cudnnAddTensor takes CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF or CUDNN_DATA_BFLOAT16 "
                    "data, cDesc holds %s",
                    type_name(c.dtype));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const AddTensorProblem &p, const AddTensorBuffers &b) {
    return require_aligned({{"A", b.a, p.a.dtype}, {"C", b.c, p.c.dtype}});
}

}  // namespace librednn
