// The RNN solver list, as the backends registered it (ops/common/registry.hpp).
#include "ops/rnn/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

const std::vector<const RnnSolver *> &rnn_solvers() { return solver_registry().rnn; }

}  // namespace librednn
