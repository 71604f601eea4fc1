// The host backend's reduction solvers.
#pragma once

#include "ops/reduce/solvers.hpp"

namespace librednn {

// Any strides and ops: each output element's reduction walked in memory order, accumulated in double.
const ReduceSolver &host_reduce_strided_solver();

}  // namespace librednn
