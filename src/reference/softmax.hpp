// The reference softmax: naive, in double, one group (image, or image and position) at a time. It is
// the specification the host and CUDA solvers are tested against.
#pragma once

#include "ops/softmax/problem.hpp"

namespace librednn::reference {

// Runs `problem` on host memory:
//   forward FAST      y = exp(x) / sum exp(x)
//           ACCURATE  y = exp(x - max) / sum exp(x - max)
//           LOG       y = (x - max) - log sum exp(x - max)
//   backward FAST, ACCURATE  dx = y * (dy - sum(dy * y))
//            LOG             dx = dy - exp(y) * sum(dy)
// with the sums over the group (all dims but N for INSTANCE, C for CHANNEL), then blended:
// out = alpha * value + beta * out, out unread when beta == 0.
void softmax(const SoftmaxProblem &problem, const SoftmaxBuffers &buffers);

}  // namespace librednn::reference
