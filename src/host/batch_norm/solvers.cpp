// The host's batch-normalisation solvers, in the order dispatch tries them.
#include "host/batch_norm/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_batch_norm_solvers(SolverRegistry &registry) {
    registry.batch_norm.push_back(&host_batch_norm_strided_solver());
}

}  // namespace librednn
