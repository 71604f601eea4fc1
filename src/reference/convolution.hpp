// The reference convolution: forward, backward data, backward filter, backward bias and the fused
// bias+activation forward, for any number of spatial dims, groups, padding, stride, dilation and both
// of cuDNN's modes, over TensorViews (so NCHW, NHWC, KCRS, KRSC or any strides). Double accumulation.
//
// Shapes (dims in cuDNN's order, whatever the strides):
//   x, dx  [N, C, spatial...]           w, dw [K, C / groups, filter spatial...]
//   y, dy  [N, K, output spatial...]    output = 1 + (input + 2*pad - ((filter - 1)*dilation + 1)) / stride
//   bias, db [1, K, 1...]               z same dims as y
// Output channel k belongs to group k / (K / groups) and sees input channels group*(C/groups) onward.
//
// Every function returns CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM with the reason recorded by
// librednn::fail() (last_failure_reason()) when the shapes do not agree; then nothing is written.
// Results are blended as cuDNN does: out = alpha*result + beta*out, and beta == 0 never reads out.
#pragma once

#include "reference/tensor_view.hpp"

#include <cudnn.h>

#include <cstdint>
#include <vector>

namespace librednn::reference {

struct ConvolutionGeometry {
    // One value per spatial dim, outer to inner (H then W; D, H, W in 3-d).
    std::vector<int64_t> padding;
    std::vector<int64_t> stride;
    std::vector<int64_t> dilation;
    int64_t groups = 1;
    // CUDNN_CONVOLUTION flips the filter along every spatial dim; CUDNN_CROSS_CORRELATION does not.
    cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
};

// The forward output dims [N, K, spatial...] for input dims `x` and filter dims `w`: an empty vector
// when the ranks disagree, a spatial dim of 0 where the dilated filter overhangs the padded input.
std::vector<int64_t> convolution_output_dims(const ConvolutionGeometry &conv, const std::vector<int64_t> &x,
                                             const std::vector<int64_t> &w);

// y = alpha * conv(x, w) + beta * y, where
//   conv(x, w)[n, k, o] = sum over c < C/groups and filter taps f of
//                         x[n, group(k)*C/groups + c, o*stride - pad + tap(f)*dilation] * w[k, c, f],
// tap(f) = f for cross-correlation and filter - 1 - f for convolution, padding reads as zero.
Status convolution_forward(const ConvolutionGeometry &conv, double alpha, const TensorView &x, const TensorView &w,
                           double beta, const TensorView &y);

// dx = alpha * conv_transpose(dy, w) + beta * dx: the adjoint of the forward in x, so that
// <conv(x, w), dy> == <x, backward_data(w, dy)>.
Status convolution_backward_data(const ConvolutionGeometry &conv, double alpha, const TensorView &w,
                                 const TensorView &dy, double beta, const TensorView &dx);

// dw = alpha * (gradient of <conv(x, w), dy> in w) + beta * dw.
Status convolution_backward_filter(const ConvolutionGeometry &conv, double alpha, const TensorView &x,
                                   const TensorView &dy, double beta, const TensorView &dw);

// db[0, k, 0...] = alpha * sum over n and output positions of dy[n, k, ...] + beta * db
// (cudnnConvolutionBackwardBias).
Status convolution_backward_bias(double alpha, const TensorView &dy, double beta, const TensorView &db);

// cudnnIm2Col: the matrix `col` (a 2-d view [N x P, C x T]) with
//   col[n * P + p][c * T + t] = x[n, c, o(p) * stride - pad + f(t) * dilation]   (zero in the padding),
// where P counts the output positions and T the taps of a filter of dims `filter_dims` ([K, C / groups,
// filter spatial...]), o(p) and f(t) unflatten them row-major, and convolution (not cross-correlation)
// reads the window backwards: column t holds tap T - 1 - t. Every channel of x makes its own columns,
// whatever the groups.
Status im2col(const ConvolutionGeometry &conv, const TensorView &x, const std::vector<int64_t> &filter_dims,
              const TensorView &col);

// The activation of the fused forward, as a cudnnActivationDescriptor_t holds it; applied by
// reference::activation_value (reference/activation.hpp), the same definition cudnnActivationForward uses.
struct Activation {
    cudnnActivationMode_t mode = CUDNN_ACTIVATION_IDENTITY;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    double coef = 0;        // CLIPPED_RELU: the ceiling; ELU: alpha
    double swish_beta = 1;  // SWISH: x * sigmoid(swish_beta * x)
};

// y = act(alpha1 * conv(x, w) + alpha2 * z + bias[0, k, 0...]) (cudnnConvolutionBiasActivationForward).
// z may be the same memory as y; with alpha2 == 0, z is not read. No beta: y is never read.
Status convolution_bias_activation_forward(const ConvolutionGeometry &conv, double alpha1, const TensorView &x,
                                           const TensorView &w, double alpha2, const TensorView &z,
                                           const TensorView &bias, const Activation &activation, const TensorView &y);

}  // namespace librednn::reference
