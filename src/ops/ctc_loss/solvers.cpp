// The CTC loss solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/ctc_loss/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const CtcLossSolver *> &ctc_loss_solvers() { return solver_registry().ctc_loss; }

}  // namespace librednn
