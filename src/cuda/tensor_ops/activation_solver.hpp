// The CUDA backend's activation solver.
#pragma once

#include "ops/activation/solvers.hpp"

namespace librednn {

// Every mode, forward and backward, any strides, float, double, half and bfloat16
// (cuda/tensor_ops/activation.hpp).
const ActivationSolver &cuda_activation_solver();

}  // namespace librednn
