// The host backend's tensor-operation solvers.
#pragma once

#include "ops/tensor/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_tensor_solvers(SolverRegistry &registry);

// Each walks its tensors row by row (packed layouts collapse to one row), in float (double for
// double data).
const AddTensorSolver &host_add_tensor_solver();
const OpTensorSolver &host_op_tensor_solver();
const SetTensorSolver &host_set_tensor_solver();

}  // namespace librednn
