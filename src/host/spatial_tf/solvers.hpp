// The host backend's spatial transformer solvers.
#pragma once

#include "ops/spatial_tf/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_spatial_tf_solvers(SolverRegistry &registry);

// Grid generator and sampler, forward and backward, any strides, in double over the threads.
const SpatialTfSolver &host_spatial_tf_solver();

}  // namespace librednn
