// The host backend's RNN solvers.
#pragma once

#include "ops/rnn/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_rnn_solvers(SolverRegistry &registry);

// Every cell, direction, layer count, input and bias mode and layout: each layer's input projections
// for all steps at once (rows over the threads), then the recurrence with the sequences over the
// threads (they are independent within a layer and direction).
const RnnSolver &host_rnn_solver();

}  // namespace librednn
