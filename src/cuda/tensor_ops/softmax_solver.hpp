// The CUDA backend's softmax solver.
#pragma once

#include "ops/softmax/solvers.hpp"

namespace librednn {

// FAST, ACCURATE and LOG, INSTANCE and CHANNEL, forward and backward, any strides, float, double, half
// and bfloat16 (cuda/tensor_ops/softmax.hpp).
const SoftmaxSolver &cuda_softmax_solver();

}  // namespace librednn
