// The activation solvers, in the order dispatch tries them: the one list that says which code runs
// an activation problem on each backend.
#pragma once

#include "ops/activation/problem.hpp"
#include "ops/common/solver.hpp"

#include <vector>

namespace librednn {

using ActivationSolver = Solver<ActivationProblem, ActivationBuffers>;

const std::vector<const ActivationSolver *> &activation_solvers();

}  // namespace librednn
