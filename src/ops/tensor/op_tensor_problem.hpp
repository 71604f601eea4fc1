// The problem of cudnnOpTensor as a value: C = op(alpha1 * A, alpha2 * B) + beta * C, with B broadcast
// along its dims of extent 1 ("op=op_tensor tensor_op=mul compute=float dtype=half dims=<C> ...").
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

struct OpTensorProblem {
    cudnnOpTensorOp_t op = CUDNN_OP_TENSOR_ADD;               // SQRT and NOT read only A: NOT is 1 - alpha1 * A
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;               // FLOAT, or DOUBLE for double data
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;  // applies to MIN and MAX
    TensorGeometry a;                                         // C's dims
    TensorGeometry b;                                         // each dim C's or 1 (ignored by SQRT and NOT)
    TensorGeometry c;
    double alpha1 = 1.0, alpha2 = 1.0, beta = 0.0;

    bool unary() const { return op == CUDNN_OP_TENSOR_SQRT || op == CUDNN_OP_TENSOR_NOT; }
    bool operator==(const OpTensorProblem &other) const;
};

struct OpTensorBuffers {
    const void *a = nullptr;
    const void *b = nullptr;  // unused by SQRT and NOT
    void *c = nullptr;        // read too when beta != 0
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const OpTensorProblem &problem, const OpTensorBuffers &buffers);

// "add", "mul", "min", "max", "sqrt", "not"; nullptr for other values.
const char *op_tensor_op_name(cudnnOpTensorOp_t op);

ProblemString to_problem_string(const OpTensorProblem &problem);
bool parse_op_tensor_problem(const ProblemString &text, OpTensorProblem *problem, std::string *error);

}  // namespace librednn
