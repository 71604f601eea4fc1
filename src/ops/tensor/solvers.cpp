// The tensor solver lists, as the backends registered them (ops/common/registry.hpp).
#include "ops/tensor/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const AddTensorSolver *> &add_tensor_solvers() { return solver_registry().add_tensor; }

const std::vector<const OpTensorSolver *> &op_tensor_solvers() { return solver_registry().op_tensor; }

const std::vector<const SetTensorSolver *> &set_tensor_solvers() { return solver_registry().set_tensor; }

}  // namespace librednn
