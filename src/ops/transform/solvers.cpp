// The transform solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/transform/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const TransformSolver *> &transform_solvers() { return solver_registry().transform; }

}  // namespace librednn
