// cudnnOpTensor on the GPU: c = op(alpha1 * a, alpha2 * b) + beta * c for ADD, MUL, MIN, MAX and the
// unary SQRT and NOT (which read only a), with b broadcasting over dims of extent 1.
// Pointers are device pointers; work is queued on `stream`; nothing synchronises.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace librednn::cuda {

struct OpTensorSpec {
    cudnnOpTensorOp_t op = CUDNN_OP_TENSOR_ADD;
    // CUDNN_DATA_DOUBLE computes in double; anything else in float (double data always in double).
    cudnnDataType_t compute_type = CUDNN_DATA_FLOAT;
    // MIN and MAX: with PROPAGATE_NAN a NaN operand gives NaN, else the other operand.
    cudnnNanPropagation_t nan = CUDNN_NOT_PROPAGATE_NAN;
};

// a has c's dims; each dim of b is c's or 1; c may be a (same layout). NOT is 1 - alpha1 * a, SQRT is
// sqrt(alpha1 * a). Types per tensor may differ (float, double, half, bfloat16, int8, uint8, int32,
// vectorised int8); equal types on packed tensors take 16-byte vectors. c is never read when beta is 0.
Status op_tensor(cudaStream_t stream, const OpTensorSpec &spec, double alpha1, const TensorGeometry &a,
                 const void *a_data, double alpha2, const TensorGeometry &b, const void *b_data, double beta,
                 const TensorGeometry &c, void *c_data);

}  // namespace librednn::cuda
