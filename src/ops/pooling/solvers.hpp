// The pooling solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/pooling/problem.hpp"

#include <vector>

namespace librednn {

using PoolingSolver = Solver<PoolingProblem, PoolingBuffers>;

const std::vector<const PoolingSolver *> &pooling_solvers();

}  // namespace librednn
