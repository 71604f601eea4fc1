// cuDNN's rules for LRN problems: x, y (dy, dx) of one shape and one floating-point type, N, C and at
// least one more dim.
#pragma once

#include "core/status.hpp"
#include "ops/lrn/problem.hpp"

namespace librednn {

Status validate_lrn(const LrnProblem &problem);

}  // namespace librednn
