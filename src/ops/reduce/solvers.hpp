// The reduction solvers, in the order dispatch tries them.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/reduce/problem.hpp"

#include <vector>

namespace librednn {

using ReduceSolver = Solver<ReduceProblem, ReduceBuffers>;

const std::vector<const ReduceSolver *> &reduce_solvers();

}  // namespace librednn
