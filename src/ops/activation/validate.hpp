// cuDNN's rules for activation calls, checked on the problem: data types, shapes, in-place use.
#pragma once

#include "core/status.hpp"
#include "ops/activation/problem.hpp"

namespace librednn {

// The status cuDNN returns for this problem (and a reason), or SUCCESS. `buffers` matter only for
// in-place calls (x and y, or dy and dx, the same pointer), which need identical layouts.
Status validate_activation(const ActivationProblem &problem, const ActivationBuffers &buffers);

}  // namespace librednn
