// The CUDA backend's reduction solver.
#pragma once

#include "ops/reduce/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_reduce_solvers(SolverRegistry &registry);

// Every op, with 32-bit indices for MIN, MAX and AMAX, any strides; A float, double, half, bfloat16 or
// int8 and C any of those (cuda/reduce/reduce.hpp). Asks for workspace when splitting a long reduction
// over several blocks helps.
const ReduceSolver &cuda_reduce_solver();

}  // namespace librednn
