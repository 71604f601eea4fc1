// The transform solvers, in the order dispatch tries them.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/transform/problem.hpp"

#include <vector>

namespace librednn {

using TransformSolver = Solver<TransformProblem, TransformBuffers>;

const std::vector<const TransformSolver *> &transform_solvers();

}  // namespace librednn
