// The host backend's activation solvers.
#pragma once

#include "ops/activation/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_activation_solvers(SolverRegistry &registry);

// Every tensor packed in one layout (NCHW, NHWC, ...): one flat loop.
const ActivationSolver &host_activation_packed_solver();

// Any strides: a row-by-row walk.
const ActivationSolver &host_activation_strided_solver();

}  // namespace librednn
