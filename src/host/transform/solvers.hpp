// The host backend's transform solvers.
#pragma once

#include "ops/transform/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's host solvers to the registry, in the order dispatch tries them.
void register_host_transform_solvers(SolverRegistry &registry);

// Layout (and, for filters, type) changes without padding or folding: a strided walk of both tensors,
// vectorised int8 included.
const TransformSolver &host_transform_copy_solver();

// Padding, folding and unfolding, and vectorised layouts the copy solver cannot split (8 dims): each
// x element sent to its place in y, element by element (padding and folding are rare outside
// convolution set-up).
const TransformSolver &host_transform_reshape_solver();

}  // namespace librednn
