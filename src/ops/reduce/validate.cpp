// cudnnReduceTensor rules: C's dims are A's or 1 and at least one is reduced; double data computes in
// double, every other mix of float, half, bfloat16 and int8 in float.
#include "ops/reduce/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

namespace {

bool single_precision_data(cudnnDataType_t type) {
    return type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_HALF || type == CUDNN_DATA_BFLOAT16 ||
           type == CUDNN_DATA_INT8;
}

}  // namespace

Status validate_reduce(const ReduceProblem &problem) {
    const TensorGeometry &a = problem.a, &c = problem.c;
    if (reduce_op_name(problem.op) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM, "reduceTensorDesc holds op %d, not a cudnnReduceTensorOp_t value",
                    static_cast<int>(problem.op));
    }
    if (!broadcasts_to(c, a)) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "aDesc is %s and cDesc is %s: each dim of C must be A's or 1 (and both need as many dims)",
                    join_dims(a.dims, a.nb_dims).c_str(), join_dims(c.dims, c.nb_dims).c_str());
    }
    if (same_dims(a, c)) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "aDesc and cDesc are both %s: nothing is reduced (give C extent 1 in the dims to reduce)",
                    join_dims(a.dims, a.nb_dims).c_str());
    }
    const bool doubles = a.dtype == CUDNN_DATA_DOUBLE || c.dtype == CUDNN_DATA_DOUBLE;
    if (doubles) {
        if (a.dtype != c.dtype || problem.compute != CUDNN_DATA_DOUBLE) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "A %s and C %s with compute type %s: double data needs double A, C and compute type",
                        type_name(a.dtype), type_name(c.dtype), type_name(problem.compute));
        }
    } else if (!single_precision_data(a.dtype) || !single_precision_data(c.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "A %s and C %s: cudnnReduceTensor takes float, half, bfloat16 and int8 (or double) data",
                    type_name(a.dtype), type_name(c.dtype));
    } else if (problem.compute != CUDNN_DATA_FLOAT) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "reduceTensorCompType is %s: A %s and C %s compute in CUDNN_DATA_FLOAT",
                    type_name(problem.compute), type_name(a.dtype), type_name(c.dtype));
    }
    return CUDNN_STATUS_SUCCESS;
}

size_t reduce_indices_bytes(const ReduceProblem &problem) {
    return problem.indices ? static_cast<size_t>(problem.c.element_count()) * sizeof(uint32_t) : 0;
}

Status buffer_alignment(const ReduceProblem &p, const ReduceBuffers &b) {
    // The indices are 32-bit (CUDNN_32BIT_INDICES, the one width cuDNN defines).
    // Without indices asked for, the indices pointer is never touched: any value passes.
    return require_aligned(
        {{"A", b.a, p.a.dtype}, {"C", b.c, p.c.dtype}, {"indices", p.indices ? b.indices : nullptr, CUDNN_DATA_INT32}});
}

}  // namespace librednn
