// cuDNN's rules for cudnnSetTensor and cudnnScaleTensor, checked on the problem.
#pragma once

#include "core/status.hpp"
#include "ops/tensor/set_tensor_problem.hpp"

#include <cudnn.h>

namespace librednn {

// True for the types cudnnSetTensor and cudnnScaleTensor take: the floating-point types and int8,
// uint8, int32 (vectorised int8 included).
bool set_tensor_supports(cudnnDataType_t type);

// The status cuDNN returns for this problem (and a reason), or SUCCESS.
Status validate_set_tensor(const SetTensorProblem &problem);

}  // namespace librednn
