// The softmax solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/softmax/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const SoftmaxSolver *> &softmax_solvers() { return solver_registry().softmax; }

}  // namespace librednn
