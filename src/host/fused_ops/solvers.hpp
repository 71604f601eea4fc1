// The host backend's fused-ops solver.
#pragma once

#include "ops/fused_ops/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_fused_ops_solvers(SolverRegistry &registry);

}  // namespace librednn
