// The CTC loss solvers, in the order dispatch tries them (ops/common/registry.hpp). Each implements one
// cudnnCTCLossAlgo_t: a call runs a solver of the algorithm it names.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/ctc_loss/problem.hpp"

#include <vector>

namespace librednn {

using CtcLossSolver = Solver<CtcLossProblem, CtcLossBuffers>;

const std::vector<const CtcLossSolver *> &ctc_loss_solvers();

}  // namespace librednn
