// The host's spatial transformer solvers, in the order dispatch tries them.
#include "host/spatial_tf/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

void register_host_spatial_tf_solvers(SolverRegistry &registry) {
    registry.spatial_tf.push_back(&host_spatial_tf_solver());
}

}  // namespace librednn
