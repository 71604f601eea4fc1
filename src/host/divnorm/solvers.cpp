// The host's divisive normalisation solvers, in the order dispatch tries them.
#include "host/divnorm/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_divnorm_solvers(SolverRegistry &registry) {
    registry.divnorm.push_back(&host_divnorm_strided_solver());
}

}  // namespace librednn
