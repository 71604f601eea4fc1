// The pooling solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/pooling/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const PoolingSolver *> &pooling_solvers() { return solver_registry().pooling; }

}  // namespace librednn
