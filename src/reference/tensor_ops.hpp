// The reference tensor operations (cudnnAddTensor, cudnnOpTensor, cudnnSetTensor, cudnnScaleTensor):
// naive, in double, one element at a time. With beta == 0 the output is never read.
#pragma once

#include "ops/tensor/add_tensor_problem.hpp"
#include "ops/tensor/op_tensor_problem.hpp"
#include "ops/tensor/set_tensor_problem.hpp"

namespace librednn::reference {

// C = alpha * A + beta * C, A broadcast along its dims of extent 1.
void add_tensor(const AddTensorProblem &problem, const AddTensorBuffers &buffers);

// op(a, b) for a = alpha1 * A and b = alpha2 * B: a + b, a * b, min, max (NaN per the option),
// sqrt(a), 1 - a.
double op_tensor_value(cudnnOpTensorOp_t op, cudnnNanPropagation_t nan_opt, double a, double b);

// C = op(alpha1 * A, alpha2 * B) + beta * C, B broadcast along its dims of extent 1.
void op_tensor(const OpTensorProblem &problem, const OpTensorBuffers &buffers);

// y = value (set) or y = alpha * y (scale).
void set_tensor(const SetTensorProblem &problem, const SetTensorBuffers &buffers);

}  // namespace librednn::reference
