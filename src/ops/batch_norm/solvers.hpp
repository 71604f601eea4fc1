// The batch-normalisation solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/batch_norm/problem.hpp"
#include "ops/common/solver.hpp"

#include <vector>

namespace librednn {

using BatchNormSolver = Solver<BatchNormProblem, BatchNormBuffers>;

const std::vector<const BatchNormSolver *> &batch_norm_solvers();

}  // namespace librednn
