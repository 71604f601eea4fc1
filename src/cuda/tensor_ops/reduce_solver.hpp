// The CUDA backend's reduction solver.
#pragma once

#include "ops/reduce/solvers.hpp"

namespace librednn {

// Every op, with 32-bit indices for MIN, MAX and AMAX, any strides; A float, double, half, bfloat16 or
// int8 and C any of those (cuda/tensor_ops/reduce.hpp). Asks for workspace when splitting a long reduction
// over several blocks helps.
const ReduceSolver &cuda_reduce_solver();

}  // namespace librednn
