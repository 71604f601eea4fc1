// The CUDA backend's RNN solvers.
#pragma once

#include "ops/rnn/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_rnn_solvers(SolverRegistry &registry);

}  // namespace librednn
