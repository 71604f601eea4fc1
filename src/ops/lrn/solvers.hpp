// The LRN solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/lrn/problem.hpp"

#include <vector>

namespace librednn {

using LrnSolver = Solver<LrnProblem, LrnBuffers>;

const std::vector<const LrnSolver *> &lrn_solvers();

}  // namespace librednn
