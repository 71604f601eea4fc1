// The CUDA backend's batch-normalisation solver.
#pragma once

#include "ops/batch_norm/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_batch_norm_solvers(SolverRegistry &registry);

}  // namespace librednn
