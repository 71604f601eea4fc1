// The reference divisive normalisation (cudnnDivisiveNormalizationForward/Backward,
// CUDNN_DIVNORM_PRECOMPUTED_MEANS), over TensorViews of [N, C, spatial...] with 2 or 3 spatial dims.
// What NVIDIA's library computes, as measured (bench/results/2026-12-01-h200-divnorm-probe/):
//
// With the LRN descriptor's n, alpha (a), beta (b) and k, d spatial dims and c = a / n^d, the window
// W(p) of position p is the n^d box over p's own image and channel that starts floor((n - 1) / 2)
// behind p in every spatial dim, clipped to the image (positions outside count nothing);
//   s_p = k + c * sum over j in W(p) of (x_j - m_p)^2,   y_p = x_p * s_p^-b,
// m the means tensor (zero when there is none): the mean at p itself, for every neighbour j, and the
// numerator is x, not x - m. Backward is the gradient of that y, with g_p = dy_p * x_p * s_p^(-b - 1):
//   dx_q     = dy_q * s_q^-b - 2 b c * sum over the p whose window holds q of g_p * (x_q - m_p),
//   dmeans_p = 2 b c * g_p * sum over j in W(p) of (x_j - m_p).
// NVIDIA's dx differs for even n (it mirrors the window); this is the true gradient for every n.
// Blending is cuDNN's: out = alpha_blend * result + beta_blend * out, and a zero beta_blend never reads
// out. Both return CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM with the reason recorded by
// librednn::fail() when the views disagree; then nothing is written.
#pragma once

#include "reference/tensor_view.hpp"

namespace librednn::reference {

struct DivisiveNormParameters {
    unsigned n = 5;
    double alpha = 1e-4, beta = 0.75, k = 2.0;
};

// The first and last position of the window of `position` along one spatial dim of `extent` positions.
void divisive_norm_window(unsigned n, int64_t position, int64_t extent, int64_t *first, int64_t *last);

// `means` may be nullptr (zero means).
Status divisive_norm_forward(const DivisiveNormParameters &norm, double alpha, const TensorView &x,
                             const TensorView *means, double beta, const TensorView &y);

// `means` may be nullptr (zero means); `d_means` may be nullptr (not computed).
Status divisive_norm_backward(const DivisiveNormParameters &norm, double alpha, const TensorView &x,
                              const TensorView *means, const TensorView &dy, double beta, const TensorView &dx,
                              const TensorView *d_means);

}  // namespace librednn::reference
