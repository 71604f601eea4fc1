// The reference pooling: forward and backward for MAX, MAX_DETERMINISTIC and the two averages, over
// any number of spatial dims (2-d, 3-d), over TensorViews (NCHW, NHWC or any strides).
//
// x, dx [N, C, spatial...]; y, dy [N, C, output spatial...] with output = 1 + (input + 2*pad - window) / stride.
// The window of output o spans input positions o*stride - pad ... o*stride - pad + window - 1 per dim;
// positions outside the input are padding.
//   MAX, MAX_DETERMINISTIC   the largest input in the window (padding never wins). With
//                            CUDNN_PROPAGATE_NAN a NaN in the window gives NaN; with
//                            CUDNN_NOT_PROPAGATE_NAN NaNs are skipped.
//   AVERAGE_COUNT_INCLUDE_PADDING  sum of the inputs / window size (padding counts as zeros)
//   AVERAGE_COUNT_EXCLUDE_PADDING  sum of the inputs / number of inputs in the window
// A window with nothing to take (all padding, or all NaN skipped) gives 0: cuDNN documents nothing for
// it. Backward routes each dy to where its forward value came from: for max, to the first maximum in
// window order (row-major over the window, recomputed from x, so ties are deterministic); for the
// averages, dy / divisor to every input of the window.
//
// Both functions return CUDNN_STATUS_SUCCESS, or CUDNN_STATUS_BAD_PARAM with the reason recorded by
// librednn::fail() when shapes or geometry disagree; then nothing is written. Blending is cuDNN's:
// out = alpha*result + beta*out, and beta == 0 never reads out.
#pragma once

#include "reference/tensor_view.hpp"

#include <cudnn.h>

#include <cstdint>
#include <vector>

namespace librednn::reference {

struct PoolingGeometry {
    cudnnPoolingMode_t mode = CUDNN_POOLING_MAX;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    // One value per spatial dim, outer to inner (H then W; D, H, W in 3-d).
    std::vector<int64_t> window;
    std::vector<int64_t> padding;
    std::vector<int64_t> stride;
};

// The output dims [N, C, spatial...] for input dims `x`; empty when the ranks disagree.
std::vector<int64_t> pooling_output_dims(const PoolingGeometry &pool, const std::vector<int64_t> &x);

// y = alpha * pool(x) + beta * y.
Status pooling_forward(const PoolingGeometry &pool, double alpha, const TensorView &x, double beta,
                       const TensorView &y);

// dx = alpha * (dy routed back through the pooling of x) + beta * dx. x is read only by the max modes.
Status pooling_backward(const PoolingGeometry &pool, double alpha, const TensorView &dy, const TensorView &x,
                        double beta, const TensorView &dx);

}  // namespace librednn::reference
