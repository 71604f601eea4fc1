// The dropout solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/dropout/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const DropoutSolver *> &dropout_solvers() { return solver_registry().dropout; }

}  // namespace librednn
