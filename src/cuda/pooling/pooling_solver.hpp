// The CUDA backend's pooling solver.
#pragma once

#include "ops/pooling/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_pooling_solvers(SolverRegistry &registry);

}  // namespace librednn
