// cuDNN's rules for batch-normalisation problems: a known mode, 4-d or 5-d data of one floating-point
// type, y (dy, dx) with x's dims, parameters with the derived dims in float (double for double data),
// epsilon at least CUDNN_BN_MIN_EPSILON.
#pragma once

#include "core/status.hpp"
#include "ops/batch_norm/problem.hpp"

namespace librednn {

Status validate_batch_norm(const BatchNormProblem &problem);

}  // namespace librednn
