// The CUDA backend's fused-ops solver.
#pragma once

#include "ops/fused_ops/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_fused_ops_solvers(SolverRegistry &registry);

}  // namespace librednn
