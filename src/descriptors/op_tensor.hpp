// The op-tensor descriptor (cudnnOpTensorDescriptor_t): the element-wise operation cudnnOpTensor applies.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

struct cudnnOpTensorStruct {
    bool is_set = false;  // false until cudnnSetOpTensorDescriptor succeeds
    cudnnOpTensorOp_t op = CUDNN_OP_TENSOR_ADD;
    cudnnDataType_t comp_type = CUDNN_DATA_FLOAT;  // the type the operation computes in
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
};

namespace librednn {

// Sets `desc` after checking that each argument is a value of its enum. Which compute types go with
// which tensor types is a rule of cudnnOpTensor itself (it sees the tensors), not of the descriptor.
Status set_op_tensor(cudnnOpTensorStruct *desc, cudnnOpTensorOp_t op, cudnnDataType_t comp_type,
                     cudnnNanPropagation_t nan_opt);

// CUDNN_STATUS_BAD_PARAM naming `name` when `desc` has not been set.
Status require_op_tensor_set(const cudnnOpTensorStruct &desc, const char *name);

// True for the operations that read only A (SQRT, NOT); B is ignored for them.
bool op_tensor_is_unary(cudnnOpTensorOp_t op);

// "CUDNN_OP_TENSOR_ADD, compute float, CUDNN_NOT_PROPAGATE_NAN" ("unset" before a Set), for log lines.
std::string op_tensor_to_string(const cudnnOpTensorStruct &desc);

}  // namespace librednn
