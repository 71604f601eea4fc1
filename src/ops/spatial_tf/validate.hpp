// cuDNN's rules for spatial transformer problems: a floating-point descriptor type that every tensor
// shares; the sampler's x of the descriptor's N and C, y and dy of the descriptor's dims, dx of x's.
#pragma once

#include "core/status.hpp"
#include "ops/spatial_tf/problem.hpp"

namespace librednn {

Status validate_spatial_tf(const SpatialTfProblem &problem);

}  // namespace librednn
