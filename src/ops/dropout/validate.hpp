// cuDNN's rules for dropout problems: in and out of one floating-point type and one element count, the
// same strides when in place.
#pragma once

#include "core/status.hpp"
#include "ops/dropout/problem.hpp"

namespace librednn {

Status validate_dropout(const DropoutProblem &problem);

}  // namespace librednn
