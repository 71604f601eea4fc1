// The reference of the fused ops cuDNN 8 implements (cudnnFusedOpsExecute; docs/FUSED_OPS.md), over
// TensorViews, in double:
//
//   scale_bias_activation   x'[n, c, ...] = act(x[n, c, ...] * scale[c] + bias[c]), rounded once to x's
//                           type (out); scale 1 and bias 0 where absent, act ReLU or none
//   conv_bnstats            y = conv(x', w); ySum[k] = sum of y[n, k, ...] and ySqSum[k] of their squares,
//                           over y as stored (rounded to y's type)
//   wgrad                   dw = backward filter of (x', dy)
//   bn_finalize_training    mean = ySum / M, var = ySqSum / M - mean^2, invstd = 1 / sqrt(var + eps);
//                           eqScale = scale * invstd, eqBias = bias - mean * eqScale; saved mean and
//                           invstd; running mean and variance (var * M / (M - 1), unbiased) blended with
//                           the factor: running = (1 - factor) * running + factor * value
//   bn_finalize_inference   eqScale = scale / sqrt(runningVar + eps), eqBias = bias - runningMean * eqScale
// Per-channel tensors are [1, C, 1...]. Optional outputs are nullptr where absent.
#pragma once

#include "reference/convolution.hpp"
#include "reference/tensor_view.hpp"

namespace librednn::reference {

Status fused_scale_bias_activation(const TensorView &x, const TensorView *scale, const TensorView *bias, bool relu,
                                   const TensorView &out);

// sum[k] and square_sum[k] over every element of y in channel k (either may be nullptr).
Status fused_channel_sums(const TensorView &y, const TensorView *sum, const TensorView *square_sum);

// The whole CONV_BNSTATS fusion; x_prime receives x' (x's type and dims).
Status fused_conv_bnstats(const ConvolutionGeometry &conv, const TensorView &x, const TensorView *scale,
                          const TensorView *bias, bool relu, const TensorView &x_prime, const TensorView &w,
                          const TensorView &y, const TensorView *sum, const TensorView *square_sum);

// The whole WGRAD fusion; x_prime receives x'.
Status fused_wgrad(const ConvolutionGeometry &conv, const TensorView &x, const TensorView *scale,
                   const TensorView *bias, bool relu, const TensorView &x_prime, const TensorView &dy,
                   const TensorView &dw);

struct BnFinalizeTrainingOutputs {
    const TensorView *saved_mean = nullptr;
    const TensorView *saved_invstd = nullptr;
    const TensorView *running_mean = nullptr;  // read and written
    const TensorView *running_var = nullptr;   // read and written
};

Status bn_finalize_training(const TensorView &sum, const TensorView &square_sum, int64_t count, const TensorView &scale,
                            const TensorView &bias, double epsilon, double factor, const TensorView &eq_scale,
                            const TensorView &eq_bias, const BnFinalizeTrainingOutputs &outputs);

Status bn_finalize_inference(const TensorView &scale, const TensorView &bias, const TensorView &running_mean,
                             const TensorView &running_var, double epsilon, const TensorView &eq_scale,
                             const TensorView &eq_bias);

}  // namespace librednn::reference
