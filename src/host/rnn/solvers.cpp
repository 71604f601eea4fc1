// The host's RNN solvers, in the order dispatch tries them.
#include "host/rnn/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_rnn_solvers(SolverRegistry &registry) { registry.rnn.push_back(&host_rnn_solver()); }

}  // namespace librednn
