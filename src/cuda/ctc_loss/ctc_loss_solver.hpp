// The CUDA backend's CTC loss solvers.
#pragma once

#include "ops/ctc_loss/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry: one per cudnnCTCLossAlgo_t, deterministic first.
void register_cuda_ctc_loss_solvers(SolverRegistry &registry);

}  // namespace librednn
