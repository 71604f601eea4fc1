// The host's LRN solvers, in the order dispatch tries them.
#include "host/lrn/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_lrn_solvers(SolverRegistry &registry) { registry.lrn.push_back(&host_lrn_strided_solver()); }

}  // namespace librednn
