// Softmax forward and backward on the GPU (the kernels behind cudnnSoftmaxForward/Backward): FAST,
// ACCURATE and LOG, over C*H*W per image (INSTANCE) or over C per pixel (CHANNEL), any strides, for
// float, double, half and bfloat16 (computed in float, double for double).
// Pointers are device pointers; work is queued on `stream`; nothing synchronises.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace librednn::cuda {

// y = alpha * s(x) + beta * y over each softmax row (y never read when beta is 0; y may be x):
//   FAST     s = e^x / sum e^x
//   ACCURATE s = e^(x - max) / sum e^(x - max)
//   LOG      s = x - max - log(sum e^(x - max))
Status softmax_forward(cudaStream_t stream, cudnnSoftmaxAlgorithm_t algorithm, cudnnSoftmaxMode_t mode, double alpha,
                       const TensorGeometry &x, const void *x_data, double beta, const TensorGeometry &y, void *y_data);

// dx = alpha * g + beta * dx over each softmax row (dx never read when beta is 0; dx may be dy):
//   FAST, ACCURATE  g = y * (dy - sum(dy * y))
//   LOG             g = dy - e^y * sum(dy)
Status softmax_backward(cudaStream_t stream, cudnnSoftmaxAlgorithm_t algorithm, cudnnSoftmaxMode_t mode, double alpha,
                        const TensorGeometry &y, const void *y_data, const TensorGeometry &dy, const void *dy_data,
                        double beta, const TensorGeometry &dx, void *dx_data);

}  // namespace librednn::cuda
