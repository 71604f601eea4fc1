// The CUDA backend's transform solver.
#pragma once

#include "ops/transform/solvers.hpp"

namespace librednn {

// Every transform (cudnnTransformTensor, cudnnTransformTensorEx, cudnnTransformFilter): layout and type
// changes with any strides, NCHW <-> NHWC through shared-memory tiles, vectorised int8
// (cuda/tensor_ops/transform.hpp); padding, folding and unfolding (cuda/tensor_ops/transform_reshape.hpp).
const TransformSolver &cuda_transform_solver();

}  // namespace librednn
