// The host backend's LRN solvers.
#pragma once

#include "ops/lrn/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_lrn_solvers(SolverRegistry &registry);

// Any strides, forward and backward: each pillar of channels (one image, one spatial position) on its
// own thread, its window sums in double.
const LrnSolver &host_lrn_strided_solver();

}  // namespace librednn
