// The reduce solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/reduce/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const ReduceSolver *> &reduce_solvers() { return solver_registry().reduce; }

}  // namespace librednn
