// The host's dropout solvers, in the order dispatch tries them.
#include "host/dropout/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_dropout_solvers(SolverRegistry &registry) {
    registry.dropout.push_back(&host_dropout_strided_solver());
}

}  // namespace librednn
