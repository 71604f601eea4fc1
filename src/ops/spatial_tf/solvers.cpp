// The spatial transformer solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/spatial_tf/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const SpatialTfSolver *> &spatial_tf_solvers() { return solver_registry().spatial_tf; }

}  // namespace librednn
