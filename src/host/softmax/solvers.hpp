// The host backend's softmax solvers.
#pragma once

#include "ops/softmax/solvers.hpp"

namespace librednn {

// Any strides, both modes and directions: each group's sums in double, elements in the compute type.
const SoftmaxSolver &host_softmax_strided_solver();

}  // namespace librednn
