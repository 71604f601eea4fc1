// cuDNN's rules for cudnnAddTensor, checked on the problem.
#pragma once

#include "core/status.hpp"
#include "ops/tensor/add_tensor_problem.hpp"

namespace librednn {

// The status cuDNN returns for this problem (and a reason), or SUCCESS.
Status validate_add_tensor(const AddTensorProblem &problem);

}  // namespace librednn
