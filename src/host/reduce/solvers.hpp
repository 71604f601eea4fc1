// The host backend's reduction solvers.
#pragma once

#include "ops/reduce/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_reduce_solvers(SolverRegistry &registry);

// Any strides and ops: each output element's reduction walked in memory order, accumulated in double.
const ReduceSolver &host_reduce_strided_solver();

}  // namespace librednn
