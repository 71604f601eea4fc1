// The spatial transformer solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/spatial_tf/problem.hpp"

#include <vector>

namespace librednn {

using SpatialTfSolver = Solver<SpatialTfProblem, SpatialTfBuffers>;

const std::vector<const SpatialTfSolver *> &spatial_tf_solvers();

}  // namespace librednn
