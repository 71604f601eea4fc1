// The convolution solvers of each direction, as the backends registered them (ops/common/registry.hpp):
// each implements one cuDNN algorithm of its direction (Solver::algorithm()).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/conv/problem.hpp"

#include <vector>

namespace librednn {

using ConvSolver = Solver<ConvProblem, ConvBuffers>;

const std::vector<const ConvSolver *> &conv_solvers(ConvDirection direction);

}  // namespace librednn
