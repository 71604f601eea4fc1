// The host backend's pooling solvers.
#pragma once

#include "ops/pooling/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_pooling_solvers(SolverRegistry &registry);

// Any strides, 1 to 6 spatial dims, forward and backward: each (image, channel) plane on its own thread.
const PoolingSolver &host_pooling_strided_solver();

}  // namespace librednn
