// cuDNN's rules for cudnnOpTensor, checked on the problem: shapes, broadcasting, and the data-type
// combinations cuDNN lists.
#pragma once

#include "core/status.hpp"
#include "ops/tensor/op_tensor_problem.hpp"

namespace librednn {

// The status cuDNN returns for this problem (and a reason), or SUCCESS.
Status validate_op_tensor(const OpTensorProblem &problem);

}  // namespace librednn
