// The dropout solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/dropout/problem.hpp"

#include <vector>

namespace librednn {

using DropoutSolver = Solver<DropoutProblem, DropoutBuffers>;

const std::vector<const DropoutSolver *> &dropout_solvers();

}  // namespace librednn
