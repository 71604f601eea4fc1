// cudnnOpTensor rules: A has C's dims, B broadcasts to C, up to 5 dims, and (compute, A, B, C) is one
// of the combinations cuDNN's documentation lists.
#include "ops/tensor/op_tensor_validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

namespace {

struct TypeCombination {
    cudnnDataType_t compute, a, b, c;
};

// cuDNN 8's table for cudnnOpTensor: A and B share a type; the compute type is FLOAT except for
// double data.
constexpr TypeCombination kCombinations[] = {
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_HALF},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_INT8},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_BFLOAT16},
    {CUDNN_DATA_FLOAT, CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16},
};

}  // namespace

Status validate_op_tensor(const OpTensorProblem &problem) {
    const TensorGeometry &a = problem.a, &b = problem.b, &c = problem.c;
    if (op_tensor_op_name(problem.op) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM, "opTensorDesc holds op %d, not a cudnnOpTensorOp_t value",
                    static_cast<int>(problem.op));
    }
    if (!same_dims(a, c)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "aDesc is %s and cDesc is %s: A must have C's dims",
                    join_dims(a.dims, a.nb_dims).c_str(), join_dims(c.dims, c.nb_dims).c_str());
    }
    if (!problem.unary() && !broadcasts_to(b, c)) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "bDesc is %s and cDesc is %s: each dim of B must be C's or 1 (and both need as many dims)",
                    join_dims(b.dims, b.nb_dims).c_str(), join_dims(c.dims, c.nb_dims).c_str());
    }
    if (c.nb_dims > 5) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "cDesc has %d dims: cudnnOpTensor supports up to 5", c.nb_dims);
    }
    // B's type matters only when B is read.
    const cudnnDataType_t b_type = problem.unary() ? a.dtype : b.dtype;
    bool tensors_listed = false;
    for (const TypeCombination &combination : kCombinations) {
        if (combination.a != a.dtype || combination.b != b_type || combination.c != c.dtype) continue;
        tensors_listed = true;
        if (combination.compute == problem.compute) return CUDNN_STATUS_SUCCESS;
    }
    if (tensors_listed) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "opTensorCompType is %s: A %s and C %s compute in %s",
                    type_name(problem.compute), type_name(a.dtype), type_name(c.dtype),
                    a.dtype == CUDNN_DATA_DOUBLE ? "CUDNN_DATA_DOUBLE" : "CUDNN_DATA_FLOAT");
    }
    return fail(CUDNN_STATUS_BAD_PARAM,
                "A %s, B %s and C %s: cudnnOpTensor takes A, B and C of one type (float, double, half, bfloat16 or "
                "int8), float A and B with a half, bfloat16 or int8 C, or int8 A and B with a float C",
                type_name(a.dtype), type_name(b_type), type_name(c.dtype));
}

Status buffer_alignment(const OpTensorProblem &p, const OpTensorBuffers &b) {
    return require_aligned({{"A", b.a, p.a.dtype}, {"B", b.b, p.b.dtype}, {"C", b.c, p.c.dtype}});
}

}  // namespace librednn
