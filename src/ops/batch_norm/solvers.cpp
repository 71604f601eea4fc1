// The batch-normalisation solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/batch_norm/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const BatchNormSolver *> &batch_norm_solvers() { return solver_registry().batch_norm; }

}  // namespace librednn
