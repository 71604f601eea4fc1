// The CUDA backend's transform solver.
#pragma once

#include "ops/transform/solvers.hpp"

namespace librednn {

// Layout and type changes without padding or folding: any strides, NCHW <-> NHWC through shared-memory
// tiles, vectorised int8 (cuda/tensor_ops/transform.hpp). Padding and folding have no CUDA kernel.
const TransformSolver &cuda_transform_solver();

}  // namespace librednn
