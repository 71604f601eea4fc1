// The host backend's dropout solvers.
#pragma once

#include "ops/dropout/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_dropout_solvers(SolverRegistry &registry);

// Any strides, forward and backward: groups of four elements (one Philox draw) split over the threads.
const DropoutSolver &host_dropout_strided_solver();

}  // namespace librednn
