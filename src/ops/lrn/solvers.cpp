// The LRN solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/lrn/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const LrnSolver *> &lrn_solvers() { return solver_registry().lrn; }

}  // namespace librednn
