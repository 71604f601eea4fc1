// cuDNN's rules for cudnnReduceTensor (and its size queries), checked on the problem.
#pragma once

#include "core/status.hpp"
#include "ops/reduce/problem.hpp"

namespace librednn {

// The status cuDNN returns for this problem's shapes and types (and a reason), or SUCCESS. The
// buffer sizes are the entry point's to check.
Status validate_reduce(const ReduceProblem &problem);

// Bytes of the indices the problem writes: 4 per element of C when it computes indices, else 0.
size_t reduce_indices_bytes(const ReduceProblem &problem);

}  // namespace librednn
