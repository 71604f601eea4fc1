// The activation solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/activation/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const ActivationSolver *> &activation_solvers() { return solver_registry().activation; }

}  // namespace librednn
