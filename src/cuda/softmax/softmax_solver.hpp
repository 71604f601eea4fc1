// The CUDA backend's softmax solver.
#pragma once

#include "ops/softmax/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_softmax_solvers(SolverRegistry &registry);

// FAST, ACCURATE and LOG, INSTANCE and CHANNEL, forward and backward, any strides, float, double, half
// and bfloat16 (cuda/softmax/softmax.hpp).
const SoftmaxSolver &cuda_softmax_solver();

}  // namespace librednn
