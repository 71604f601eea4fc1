// The softmax solvers, in the order dispatch tries them.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/softmax/problem.hpp"

#include <vector>

namespace librednn {

using SoftmaxSolver = Solver<SoftmaxProblem, SoftmaxBuffers>;

const std::vector<const SoftmaxSolver *> &softmax_solvers();

}  // namespace librednn
