// The pooling descriptor (cudnnPoolingDescriptor_t): mode, NaN option, and per spatial dimension the
// window, padding and stride; and the output shape of a pooling.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

struct cudnnTensorStruct;

struct cudnnPoolingStruct {
    // Pooling works on the spatial dims of a tensor (all but N and C).
    static constexpr int kMaxSpatialDims = CUDNN_DIM_MAX - 2;

    bool is_set = false;  // false until cudnnSetPooling2dDescriptor or cudnnSetPoolingNdDescriptor succeeds
    cudnnPoolingMode_t mode = CUDNN_POOLING_MAX;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    int nb_dims = 0;                   // spatial dims (2 for 2-D pooling)
    int window[kMaxSpatialDims] = {};  // outer to inner (H then W for 2-D)
    int padding[kMaxSpatialDims] = {};
    int stride[kMaxSpatialDims] = {};
};

namespace librednn {

// How a setter names its arguments in reasons: the 2d setter's scalars (windowHeight,
// horizontalPadding, verticalStride) or the Nd setter's arrays (windowDimA[1], paddingA[0], strideA[2]).
enum class PoolingSetter { two_d, n_d };

// Sets `desc` after cuDNN's checks: mode and NaN option are enum values; nbDims is at least 1
// (BAD_PARAM) and at most CUDNN_DIM_MAX-2 (NOT_SUPPORTED); every window and stride is positive and
// every padding non-negative (BAD_PARAM). On failure `desc` is left as it was.
Status set_pooling(cudnnPoolingStruct *desc, PoolingSetter setter, cudnnPoolingMode_t mode,
                   cudnnNanPropagation_t nan_opt, int nb_dims, const int *window, const int *padding,
                   const int *stride);

// CUDNN_STATUS_BAD_PARAM naming `name` when `desc` has not been set.
Status require_pooling_set(const cudnnPoolingStruct &desc, const char *name);

// The dims (N, C, then spatial; `input.nb_dims` of them) of pooling `input` with `pooling`:
// each spatial dim is 1 + (in + 2*padding - window) / stride. Fails with CUDNN_STATUS_BAD_PARAM when
// either descriptor is not set, when the tensor does not have pooling.nb_dims + 2 dims, or when a
// window is larger than its padded input.
Status pooling_output_dims(const cudnnPoolingStruct &pooling, const cudnnTensorStruct &input, int *output_dims);

// "CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, window 3x3, padding 1x1, stride 2x2" ("unset" before
// a Set), for log lines and problem strings.
std::string pooling_to_string(const cudnnPoolingStruct &desc);

}  // namespace librednn
