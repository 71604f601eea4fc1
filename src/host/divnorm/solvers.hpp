// The host backend's divisive normalisation solvers.
#pragma once

#include "ops/divnorm/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_divnorm_solvers(SolverRegistry &registry);

// Any strides, 4-d and 5-d, forward and backward, in place too: the elements split over the threads,
// every window summed afresh in double.
const DivNormSolver &host_divnorm_strided_solver();

}  // namespace librednn
