// cuDNN's rules for softmax calls, checked on the problem: algorithm and mode, data types, shapes,
// in-place use.
#pragma once

#include "core/status.hpp"
#include "ops/softmax/problem.hpp"

namespace librednn {

// The status cuDNN returns for this problem (and a reason), or SUCCESS.
Status validate_softmax(const SoftmaxProblem &problem, const SoftmaxBuffers &buffers);

}  // namespace librednn
