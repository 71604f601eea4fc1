// Copying, scaling, broadcasting and filling tensors on the GPU: the kernels behind cudnnTransformTensor
// (layout and type changes: NCHW, NHWC, NCHW_VECT_C, any strides), cudnnAddTensor, cudnnSetTensor and
// cudnnScaleTensor. Blending follows cuDNN: y = alpha * x + beta * y, and y is never read when beta is 0.
// Pointers are device pointers; work is queued on `stream`; nothing synchronises.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// y = alpha * x + beta * y. x and y have the same dims; strides, layouts and element types may differ
// (float, double, half, bfloat16, int8, uint8, int32 and the vectorised int8 types). Packed NCHW <-> NHWC
// copies go through shared-memory tiles; packed same-layout copies through 16-byte vectors.
Status transform_tensor(cudaStream_t stream, double alpha, const TensorGeometry &x, const void *x_data, double beta,
                        const TensorGeometry &y, void *y_data);

// c = alpha * a + beta * c, where each dim of a equals c's or is 1 (a broadcasts: a 1xCx1x1 bias onto
// NxCxHxW). Same types and paths as transform_tensor.
Status add_tensor(cudaStream_t stream, double alpha, const TensorGeometry &a, const void *a_data, double beta,
                  const TensorGeometry &c, void *c_data);

// Every element of y = value, rounded once to y's type (integers saturate). y is never read.
Status set_tensor(cudaStream_t stream, const TensorGeometry &y, void *y_data, double value);

// y = alpha * y (nothing to do when alpha is 1).
Status scale_tensor(cudaStream_t stream, const TensorGeometry &y, void *y_data, double alpha);

}  // namespace librednn::cuda
