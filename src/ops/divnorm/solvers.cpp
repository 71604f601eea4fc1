// The divisive normalisation solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/divnorm/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const DivNormSolver *> &divnorm_solvers() { return solver_registry().divnorm; }

}  // namespace librednn
