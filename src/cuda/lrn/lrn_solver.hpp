// The CUDA backend's LRN solver.
#pragma once

#include "ops/lrn/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_lrn_solvers(SolverRegistry &registry);

}  // namespace librednn
