// Padding and folding on the GPU: the kernel behind cudnnTransformTensorEx and cudnnTransformFilter when
// the transform descriptor pads (negative padding crops) or folds spatial blocks into channels.
// y = alpha * T(x) + beta * y, where T pads x with zeros and folds it, or unfolds x and pads the result
// (the semantics of reference/transform.cpp: y channel k * C + c holds x channel c at position k of
// its fold block, k row-major over the spatial dims). Pointers are device pointers; work is queued on
// `stream`; nothing synchronises.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

// What the transform does besides changing the layout. Padding refers to the unfolded geometry: fold
// pads x first, unfold pads its result.
struct ReshapeSpec {
    int32_t pad_before[kMaxDims] = {};  // per dim, NCHW order
    int32_t pad_after[kMaxDims] = {};
    uint32_t fold[kMaxDims] = {1, 1, 1, 1, 1, 1, 1, 1};  // per spatial dim: fold[0] is dim 2
    bool unfold = false;
};

// x and y may hold different element types (filter transforms convert) and any strides, vectorised
// int8 included; y's dims must be x's transformed (the caller validated them). Values are computed in
// float (double when either side is double or int32); with alpha = 1, beta = 0 and one scalar type the
// bits are copied. y is never read when beta is 0.
Status transform_reshape(cudaStream_t stream, const ReshapeSpec &spec, double alpha, const TensorGeometry &x,
                         const void *x_data, double beta, const TensorGeometry &y, void *y_data);

}  // namespace librednn::cuda
