// The CUDA backend's activation solver.
#pragma once

#include "ops/activation/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_activation_solvers(SolverRegistry &registry);

// Every mode, forward and backward, any strides, float, double, half and bfloat16
// (cuda/activation/activation.hpp).
const ActivationSolver &cuda_activation_solver();

}  // namespace librednn
