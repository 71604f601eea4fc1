// The host backend's softmax solvers.
#pragma once

#include "ops/softmax/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_softmax_solvers(SolverRegistry &registry);

// Any strides, both modes and directions: each group's sums in double, elements in the compute type.
const SoftmaxSolver &host_softmax_strided_solver();

}  // namespace librednn
