// The host backend's CTC loss solvers: one per cudnnCTCLossAlgo_t, the same code (ctc_loss.cpp).
#pragma once

#include "ops/common/registry.hpp"
#include "ops/ctc_loss/solvers.hpp"

namespace librednn {

// Adds this family's host solvers to the registry, deterministic first.
void register_host_ctc_loss_solvers(SolverRegistry &registry);

}  // namespace librednn
