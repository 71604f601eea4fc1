// The reference spatial transformer (cudnnSpatialTfGridGeneratorForward/Backward,
// cudnnSpatialTfSamplerForward/Backward): an affine grid generator and a bilinear sampler with zero
// padding, over TensorViews. It is PyTorch's affine_grid / grid_sample with align_corners=True.
//
// theta [N, 2, 3]; grid, dgrid [N, H, W, 2] (last dim (x, y)); x, dx [N, C, Hin, Win]; y, dy
// [N, C, H, W]. H and W are the transformer's output dims.
//   Grid generator: output pixel (h, w) has the normalised coordinates
//       x_t = -1 + 2w / (W - 1),  y_t = -1 + 2h / (H - 1)   (0 when W, H is 1: the middle of [-1, 1])
//     and grid[n, h, w, i] = theta[n, i, 0] * x_t + theta[n, i, 1] * y_t + theta[n, i, 2].
//     Backward: dtheta[n, i, :] = sum over h, w of dgrid[n, h, w, i] * (x_t, y_t, 1); dtheta is
//     overwritten (the call has no alpha and beta).
//   Sampler: output (n, c, h, w) reads x at the input coordinates
//       ix = (gx + 1) (Win - 1) / 2,  iy = (gy + 1) (Hin - 1) / 2   (gx, gy = grid[n, h, w, :]),
//     bilinearly: the four taps (floor(ix) + {0, 1}, floor(iy) + {0, 1}) weighted by
//     (1 - tx or tx) * (1 - ty or ty), tx = ix - floor(ix); a tap outside x contributes 0 (a NaN or
//     infinite coordinate has no tap inside). Backward scatters dy back along the same weights into dx
//     and gives dgrid[n, h, w, :] = sum over c of dy * (d sample / d gx, d sample / d gy), with
//     d ix / d gx = (Win - 1) / 2; at integer coordinates it is the derivative from the right (the taps
//     of floor).
// Blending is cuDNN's: y = alpha * sample + beta * y, dx = alpha * scatter + beta * dx, dgrid =
// alpha_dgrid * gradient + beta_dgrid * dgrid, and a zero beta never reads its output. Each function
// returns CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM with the reason recorded by
// librednn::fail() when the views disagree; then nothing is written.
#pragma once

#include "reference/tensor_view.hpp"

#include <cstdint>

namespace librednn::reference {

// The normalised coordinate of output position i of `extent`: -1 + 2i / (extent - 1), 0 for extent 1.
double spatial_tf_base_coordinate(int64_t i, int64_t extent);

// The input coordinate a grid value g reads along an input dim of `extent`: (g + 1) (extent - 1) / 2.
double spatial_tf_source_coordinate(double g, int64_t extent);

Status spatial_tf_grid_forward(const TensorView &theta, const TensorView &grid);

Status spatial_tf_grid_backward(const TensorView &dgrid, const TensorView &dtheta);

Status spatial_tf_sampler_forward(double alpha, const TensorView &x, const TensorView &grid, double beta,
                                  const TensorView &y);

Status spatial_tf_sampler_backward(double alpha, const TensorView &x, double beta, const TensorView &dx,
                                   double alpha_dgrid, const TensorView &dy, const TensorView &grid, double beta_dgrid,
                                   const TensorView &dgrid);

}  // namespace librednn::reference
