// A reduction problem (cudnnReduceTensor) as a value: C = alpha * reduce(A) + beta * C over the dims
// where C has extent 1 and A does not ("op=reduce reduce_op=max compute=float indices=1 dtype=half
// dims=<A> astrides=... cdims=... cstrides=...").
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

struct ReduceProblem {
    cudnnReduceTensorOp_t op = CUDNN_REDUCE_TENSOR_ADD;
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;               // FLOAT, or DOUBLE for double data
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;  // applies to MIN, MAX and AMAX
    // Writes, per element of C, the flattened position of the chosen element among the reduced ones
    // (MIN, MAX and AMAX only): row-major over the reduced dims, the first on ties.
    bool indices = false;
    TensorGeometry a;
    TensorGeometry c;  // each dim A's or 1; the dims of extent 1 where A's is not are reduced
    double alpha = 1.0, beta = 0.0;

    bool reduced(int dim) const { return c.dims[dim] == 1 && a.dims[dim] != 1; }
    // Elements of A that make one element of C.
    int64_t reduction_length() const;
    bool operator==(const ReduceProblem &other) const;
};

// `indices` holds one uint32 per element of C, packed in C's row-major (NCHW) element order; it is
// written only when the problem computes indices. The workspace comes with the execution context.
struct ReduceBuffers {
    const void *a = nullptr;
    void *c = nullptr;  // read too when beta != 0
    void *indices = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const ReduceProblem &problem, const ReduceBuffers &buffers);

// "add", "mul", "min", "max", "amax", "avg", "norm1", "norm2", "mul_no_zeros"; nullptr otherwise.
const char *reduce_op_name(cudnnReduceTensorOp_t op);
// The op reduce_op_name() calls `name`; false when none.
bool reduce_op_from_name(const std::string &name, cudnnReduceTensorOp_t *op);

// True for the ops that can give indices (MIN, MAX, AMAX).
bool reduce_op_has_indices(cudnnReduceTensorOp_t op);

ProblemString to_problem_string(const ReduceProblem &problem);
bool parse_reduce_problem(const ProblemString &text, ReduceProblem *problem, std::string *error);

}  // namespace librednn
