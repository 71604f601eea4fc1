// The host's pooling solvers, in the order dispatch tries them.
#include "host/pooling/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_pooling_solvers(SolverRegistry &registry) {
    registry.pooling.push_back(&host_pooling_strided_solver());
}

}  // namespace librednn
