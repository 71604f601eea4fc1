// cuDNN's rules for divisive normalisation problems: 4-d or 5-d tensors (BAD_PARAM otherwise), y (or
// dx and dMeans) of x's dims and type (BAD_PARAM), float, double or half (NOT_SUPPORTED otherwise).
#pragma once

#include "core/status.hpp"
#include "ops/divnorm/problem.hpp"

namespace librednn {

Status validate_divnorm(const DivNormProblem &problem);

}  // namespace librednn
