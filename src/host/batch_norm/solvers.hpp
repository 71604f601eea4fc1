// The host backend's batch-normalisation solvers.
#pragma once

#include "ops/batch_norm/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_batch_norm_solvers(SolverRegistry &registry);

// Any strides, every mode and phase: each parameter element (a channel, or a channel and position) on
// its own thread, its sums in double.
const BatchNormSolver &host_batch_norm_strided_solver();

}  // namespace librednn
