// The CUDA backend's spatial transformer solver.
#pragma once

#include "ops/spatial_tf/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_spatial_tf_solvers(SolverRegistry &registry);

}  // namespace librednn
