// The host's transform solvers, in the order dispatch tries them.
#include "host/transform/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_transform_solvers(SolverRegistry &registry) {
    registry.transform.push_back(&host_transform_copy_solver());
    registry.transform.push_back(&host_transform_reshape_solver());
}

}  // namespace librednn
