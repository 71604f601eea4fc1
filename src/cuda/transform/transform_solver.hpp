// The CUDA backend's transform solver.
#pragma once

#include "ops/transform/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_transform_solvers(SolverRegistry &registry);

// Every transform (cudnnTransformTensor, cudnnTransformTensorEx, cudnnTransformFilter): layout and type
// changes with any strides, NCHW <-> NHWC through shared-memory tiles, vectorised int8
// (cuda/transform/transform.hpp); padding, folding and unfolding (cuda/transform/transform_reshape.hpp).
const TransformSolver &cuda_transform_solver();

}  // namespace librednn
