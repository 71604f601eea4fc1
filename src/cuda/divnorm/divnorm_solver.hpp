// The CUDA backend's divisive normalisation solver.
#pragma once

#include "ops/divnorm/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_divnorm_solvers(SolverRegistry &registry);

}  // namespace librednn
