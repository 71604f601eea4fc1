// cuDNN's rules for pooling problems: the tensors agree with the descriptor's geometry and each other,
// and hold one floating-point type.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

namespace librednn {

Status validate_pooling(const PoolingProblem &problem);

}  // namespace librednn
