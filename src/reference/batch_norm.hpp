// The reference batch normalisation: inference, training forward (with the running statistics and the
// saved mean / inverse standard deviation) and backward, in cuDNN's SPATIAL and PER_ACTIVATION modes.
//
// x, y, dy, dx have dims [N, C, spatial...]; the parameter tensors (scale, bias, means, variances and
// their gradients) have the derived dims of cudnnDeriveBNTensorDescriptor:
//   CUDNN_BATCHNORM_SPATIAL (and _PERSISTENT, same numbers)  [1, C, 1...]        statistics over N and spatial
//   CUDNN_BATCHNORM_PER_ACTIVATION                           [1, C, spatial...]  statistics over N
// With M the number of values normalised together, mean = sum x / M, variance = sum (x - mean)^2 / M
// (biased, used to normalise) and x_hat = (x - mean) / sqrt(variance + epsilon).
//
// y may be the memory of x, and dx that of dy (each element is read before it is written).
// Every function returns CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM with the reason recorded by
// librednn::fail() when the shapes do not agree; then nothing is written. Blending is cuDNN's:
// out = alpha*result + beta*out, and a zero beta never reads out.
#pragma once

#include "reference/tensor_view.hpp"

#include <cudnn.h>

#include <vector>

namespace librednn::reference {

// The parameter dims for `x_dims` in `mode`; empty for a mode that is not a cudnnBatchNormMode_t.
std::vector<int64_t> batch_norm_parameter_dims(cudnnBatchNormMode_t mode, const std::vector<int64_t> &x_dims);

// y = alpha * (scale * (x - estimated_mean) / sqrt(estimated_variance + epsilon) + bias) + beta * y.
Status batch_norm_forward_inference(cudnnBatchNormMode_t mode, double alpha, double beta, const TensorView &x,
                                    const TensorView &y, const TensorView &scale, const TensorView &bias,
                                    const TensorView &estimated_mean, const TensorView &estimated_variance,
                                    double epsilon);

// y = alpha * (scale * x_hat + bias) + beta * y, with the statistics of this batch. Then, when given:
//   running_mean     = (1 - factor) * running_mean     + factor * mean
//   running_variance = (1 - factor) * running_variance + factor * variance * M / (M - 1)   (unbiased)
//   saved_mean = mean, saved_inv_variance = 1 / sqrt(variance + epsilon)
// where factor is exponential_average_factor (1 replaces the running values: with 1 - factor == 0 the
// old ones are not read). The running pair and the saved pair are each optional (nullptr) together.
// M == 1 makes the unbiased variance 0/0: NaN, as the formula says.
Status batch_norm_forward_training(cudnnBatchNormMode_t mode, double alpha, double beta, const TensorView &x,
                                   const TensorView &y, const TensorView &scale, const TensorView &bias,
                                   double exponential_average_factor, const TensorView *running_mean,
                                   const TensorView *running_variance, double epsilon, const TensorView *saved_mean,
                                   const TensorView *saved_inv_variance);

// The gradients of y = scale * x_hat + bias, blended:
//   dbias  = sum dy                      -> dbias  = alpha_param * dbias  + beta_param * dbias
//   dscale = sum dy * x_hat              -> dscale = alpha_param * dscale + beta_param * dscale
//   dx = scale / sqrt(variance + epsilon) * (dy - dbias / M - x_hat * dscale / M)
//                                        -> dx = alpha_data * dx + beta_data * dx
// The statistics are saved_mean / saved_inv_variance from the training forward when given (both or
// neither), else recomputed from x with epsilon.
Status batch_norm_backward(cudnnBatchNormMode_t mode, double alpha_data, double beta_data, double alpha_param,
                           double beta_param, const TensorView &x, const TensorView &dy, const TensorView &dx,
                           const TensorView &scale, const TensorView &dscale, const TensorView &dbias, double epsilon,
                           const TensorView *saved_mean, const TensorView *saved_inv_variance);

}  // namespace librednn::reference
