// The divisive normalisation solvers, in the order dispatch tries them (ops/common/registry.hpp).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/divnorm/problem.hpp"

#include <vector>

namespace librednn {

using DivNormSolver = Solver<DivNormProblem, DivNormBuffers>;

const std::vector<const DivNormSolver *> &divnorm_solvers();

}  // namespace librednn
