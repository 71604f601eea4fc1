// Activation forward and backward on the GPU (the kernels behind cudnnActivationForward/Backward):
// sigmoid, relu, tanh, clipped relu, elu, identity and swish, element by element, any strides, for
// float, double, half and bfloat16 (computed in float, double for double).
// Pointers are device pointers; work is queued on `stream`; nothing synchronises.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>
#include <cudnn.h>

namespace librednn::cuda {

struct ActivationSpec {
    cudnnActivationMode_t mode = CUDNN_ACTIVATION_RELU;
    // CUDNN_NOT_PROPAGATE_NAN: relu and clipped relu give 0 for NaN (backward: 0); PROPAGATE: NaN.
    // The other modes propagate NaN whatever this says.
    cudnnNanPropagation_t nan = CUDNN_NOT_PROPAGATE_NAN;
    double coef = 0;        // clipped relu: the ceiling; elu: alpha
    double swish_beta = 1;  // swish: x * sigmoid(swish_beta * x)
};

// y = alpha * f(x) + beta * y; y is never read when beta is 0. x and y have the same dims; strides may
// differ; y may be x (same layout).
//   sigmoid 1 / (1 + e^-x); relu max(x, 0); tanh; clipped relu min(max(x, 0), coef);
//   elu x > 0 ? x : coef * (e^x - 1); identity x; swish x * sigmoid(swish_beta * x).
Status activation_forward(cudaStream_t stream, const ActivationSpec &spec, double alpha, const TensorGeometry &x,
                          const void *x_data, double beta, const TensorGeometry &y, void *y_data);

// dx = alpha * g + beta * dx (dx never read when beta is 0), with g per mode:
//   sigmoid dy * y * (1 - y); relu x > 0 ? dy : 0; tanh dy * (1 - y^2); clipped relu 0 < x < coef ? dy : 0;
//   elu x > 0 ? dy : dy * coef * e^x; identity dy; swish dy * (s + b * x * s * (1 - s)), s = sigmoid(b * x).
// Only the tensors a mode needs are read (relu, clipped relu, elu and swish read dy and x; sigmoid and
// tanh read y and dy; identity reads dy), so the others may be null. dx may be dy (same layout).
Status activation_backward(cudaStream_t stream, const ActivationSpec &spec, double alpha, const TensorGeometry &y,
                           const void *y_data, const TensorGeometry &dy, const void *dy_data, const TensorGeometry &x,
                           const void *x_data, double beta, const TensorGeometry &dx, void *dx_data);

}  // namespace librednn::cuda
