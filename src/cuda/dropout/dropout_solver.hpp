// The CUDA backend's dropout solver.
#pragma once

#include "ops/dropout/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_dropout_solvers(SolverRegistry &registry);

}  // namespace librednn
