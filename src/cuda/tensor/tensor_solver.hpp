// The CUDA backend's solvers of the tensor operations (cudnnAddTensor, cudnnOpTensor, cudnnSetTensor
// and cudnnScaleTensor).
#pragma once

#include "ops/tensor/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds this family's CUDA solvers to the registry, in the order dispatch tries them.
void register_cuda_tensor_solvers(SolverRegistry &registry);

// Any strides and broadcasts; float, double, half, bfloat16, int8, uint8, int32 and vectorised int8
// (cuda/transform/transform.hpp and cuda/tensor/op_tensor.hpp).
const AddTensorSolver &cuda_add_tensor_solver();
const OpTensorSolver &cuda_op_tensor_solver();
const SetTensorSolver &cuda_set_tensor_solver();

}  // namespace librednn
