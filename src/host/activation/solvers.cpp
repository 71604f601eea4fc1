// The host's activation solvers, in the order dispatch tries them.
#include "host/activation/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_activation_solvers(SolverRegistry &registry) {
    registry.activation.push_back(&host_activation_packed_solver());
    registry.activation.push_back(&host_activation_strided_solver());
}

}  // namespace librednn
