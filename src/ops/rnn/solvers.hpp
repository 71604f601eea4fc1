// The RNN solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/rnn/problem.hpp"

#include <vector>

namespace librednn {

using RnnSolver = Solver<RnnProblem, RnnBuffers>;

const std::vector<const RnnSolver *> &rnn_solvers();

}  // namespace librednn
