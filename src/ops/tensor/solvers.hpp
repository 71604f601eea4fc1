// The solver lists of the tensor operations (cudnnAddTensor, cudnnOpTensor, cudnnSetTensor and
// cudnnScaleTensor), in the order dispatch tries them.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/tensor/add_tensor_problem.hpp"
#include "ops/tensor/op_tensor_problem.hpp"
#include "ops/tensor/set_tensor_problem.hpp"

#include <vector>

namespace librednn {

using AddTensorSolver = Solver<AddTensorProblem, AddTensorBuffers>;
using OpTensorSolver = Solver<OpTensorProblem, OpTensorBuffers>;
using SetTensorSolver = Solver<SetTensorProblem, SetTensorBuffers>;

const std::vector<const AddTensorSolver *> &add_tensor_solvers();
const std::vector<const OpTensorSolver *> &op_tensor_solvers();
const std::vector<const SetTensorSolver *> &set_tensor_solvers();

}  // namespace librednn
