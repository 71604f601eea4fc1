// The host's softmax solvers, in the order dispatch tries them.
#include "host/softmax/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_softmax_solvers(SolverRegistry &registry) {
    registry.softmax.push_back(&host_softmax_strided_solver());
}

}  // namespace librednn
