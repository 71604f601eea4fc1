// The reference local response normalisation across channels (cudnnLRNCrossChannelForward/Backward,
// CUDNN_LRN_CROSS_CHANNEL_DIM1), over TensorViews of [N, C, spatial...].
//
// With the descriptor's n, alpha, beta and k, channel c's window is c - floor((n - 1) / 2) ...
// c + n - 1 - floor((n - 1) / 2), clipped to the channels there are (cuDNN's lookBehind / lookAhead);
//   s_c = k + alpha / n * sum over the window of x^2,   y_c = x_c * s_c^-beta.
// Backward (the gradient of that y, from x; the y argument of cuDNN's call is not needed):
//   dx_j = dy_j * s_j^-beta - 2 * alpha * beta / n * x_j * sum over the c whose window holds j of
//          dy_c * x_c * s_c^(-beta - 1).
// Blending is cuDNN's: out = alpha_blend * result + beta_blend * out, and a zero beta_blend never reads
// out. Both return CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM with the reason recorded by
// librednn::fail() when the views disagree; then nothing is written.
#pragma once

#include "reference/tensor_view.hpp"

namespace librednn::reference {

struct LrnParameters {
    unsigned n = 5;
    double alpha = 1e-4, beta = 0.75, k = 2.0;
};

// The first and last channel of channel c's window, among `channels`.
void lrn_window(const LrnParameters &lrn, int64_t c, int64_t channels, int64_t *first, int64_t *last);

Status lrn_cross_channel_forward(const LrnParameters &lrn, double alpha, const TensorView &x, double beta,
                                 const TensorView &y);

Status lrn_cross_channel_backward(const LrnParameters &lrn, double alpha, const TensorView &x, const TensorView &dy,
                                  double beta, const TensorView &dx);

}  // namespace librednn::reference
