// The convolution descriptor (cudnnConvolutionDescriptor_t): padding, strides, dilations, mode and
// compute type, plus math type, group count and reorder type; its rules and the forward output shape.
#pragma once

#include "core/status.hpp"
#include "descriptors/filter.hpp"
#include "descriptors/tensor.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

// A convolution has at most CUDNN_DIM_MAX - 2 spatial dimensions (the tensor's N and C are not convolved).
constexpr int kMaxConvolutionSpatialDims = CUDNN_DIM_MAX - 2;

}  // namespace librednn

struct cudnnConvolutionStruct {
    bool is_set = false;   // false until cudnnSetConvolution2dDescriptor or cudnnSetConvolutionNdDescriptor succeeds
    int spatial_dims = 0;  // the setter's arrayLength (2 for the 2d setter)
    int pads[librednn::kMaxConvolutionSpatialDims] = {};
    int strides[librednn::kMaxConvolutionSpatialDims] = {};
    int dilations[librednn::kMaxConvolutionSpatialDims] = {};
    cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;
    cudnnDataType_t compute_type = CUDNN_DATA_FLOAT;
    // Set on their own, before or after the geometry; a new descriptor holds cuDNN's documented defaults.
    cudnnMathType_t math_type = CUDNN_DEFAULT_MATH;
    int group_count = 1;
    cudnnReorderType_t reorder_type = CUDNN_DEFAULT_REORDER;
};

namespace librednn {

// How a geometry setter names its arguments in reasons: the 2d setter's scalars (pad_h, u, dilation_w)
// or the Nd setter's arrays (padA[1], filterStrideA[0], dilationA[2]).
enum class ConvolutionSetter { two_d, n_d };

// Checks cuDNN's rules for the geometry, mode and compute type and, when they hold, sets them in `conv`
// (math type, group count and reorder type are kept).
Status set_convolution(cudnnConvolutionStruct *conv, ConvolutionSetter setter, int spatial_dims, const int *pads,
                       const int *strides, const int *dilations, cudnnConvolutionMode_t mode,
                       cudnnDataType_t compute_type);

// Check one value each, for the setters of the same names.
Status check_math_type(cudnnMathType_t math_type);
Status check_group_count(int group_count);
Status check_reorder_type(cudnnReorderType_t reorder_type);

// CUDNN_STATUS_BAD_PARAM naming `name` when `conv` has not been set yet.
Status require_convolution_set(const cudnnConvolutionStruct &conv, const char *name);

// The dims (N, K, then spatial) of the forward output of `conv` applied to `input` with `filter`,
// out = 1 + (in + 2*pad - ((filter - 1)*dilation + 1)) / stride, after cuDNN's agreement checks:
// all three set, one spatial rank, input C == filter C x group count, dilated filter within the
// padded input. `output_dims` receives input.nb_dims values. Reasons name the arguments
// convDesc, inputTensorDesc and filterDesc.
Status convolution_forward_output_dims(const cudnnConvolutionStruct &conv, const cudnnTensorStruct &input,
                                       const cudnnFilterStruct &filter, int *output_dims);

// "cross_correlation pad 1x1 stride 2x2 dilation 1x1 compute float math CUDNN_DEFAULT_MATH groups 1",
// for log lines and problem strings ("unset" before a geometry setter ran).
std::string convolution_to_string(const cudnnConvolutionStruct &conv);

}  // namespace librednn
