// The problem of cudnnAddTensor as a value: C = alpha * A + beta * C, with A broadcast along its dims
// of extent 1 ("op=add_tensor dtype=float dims=<C> adims=1x64x1x1 astrides=... cstrides=...").
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <string>

namespace librednn {

struct AddTensorProblem {
    TensorGeometry a;  // the bias: each dim C's or 1
    TensorGeometry c;
    double alpha = 1.0, beta = 1.0;

    bool operator==(const AddTensorProblem &other) const;
};

struct AddTensorBuffers {
    const void *a = nullptr;
    void *c = nullptr;  // read too when beta != 0
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const AddTensorProblem &problem, const AddTensorBuffers &buffers);

ProblemString to_problem_string(const AddTensorProblem &problem);
bool parse_add_tensor_problem(const ProblemString &text, AddTensorProblem *problem, std::string *error);

}  // namespace librednn
