// The host's reduce solvers, in the order dispatch tries them.
#include "host/reduce/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_reduce_solvers(SolverRegistry &registry) {
    registry.reduce.push_back(&host_reduce_strided_solver());
}

}  // namespace librednn
