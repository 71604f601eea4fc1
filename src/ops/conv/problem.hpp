// A convolution problem (cudnnConvolutionForward, BackwardData, BackwardFilter and the fused
// cudnnConvolutionBiasActivationForward) as a value, with its buffers and its problem string
// ("op=conv dir=fwd dtype=half layout=nhwc n=32 c=64 h=56 w=56 k=64 r=3 s=3 pad=1x1 ...").
//
// Shapes (dims in cuDNN's order, whatever the strides):
//   x, dx  [N, C, spatial...]      w, dw  [K, C / groups, filter spatial...]
//   y, dy  [N, K, output spatial...], output = 1 + (input + 2 pad - ((filter - 1) dilation + 1)) / stride
// Output channel k belongs to group k / (K / groups) and reads input channels group * C / groups onward.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <cstdint>
#include <string>

namespace librednn {

enum class ConvDirection { forward, backward_data, backward_filter };

// "fwd", "bwd_data", "bwd_filter", as problem strings and librednn-bench spell them.
const char *conv_direction_name(ConvDirection direction);

constexpr int kMaxConvSpatialDims = kMaxDims - 2;

// What cudnnConvolutionBiasActivationForward adds after the convolution: y = act(alpha * conv + alpha2 *
// z + bias). `z` may be y's memory; with alpha2 == 0 it is not read.
struct ConvEpilogue {
    bool fused = false;
    double alpha2 = 0.0;
    TensorGeometry z;     // y's dims
    TensorGeometry bias;  // [1, K, 1...]
    cudnnActivationMode_t activation = CUDNN_ACTIVATION_IDENTITY;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    double coef = 0.0;
};

struct ConvProblem {
    ConvDirection direction = ConvDirection::forward;
    // x: the input activations (forward, backward filter) or their gradient dx (backward data). w: the
    // filter (its gradient dw backward filter), packed in `filter_format`. y: the output (forward) or
    // its gradient dy (both backward directions).
    TensorGeometry x, w, y;
    cudnnTensorFormat_t filter_format = CUDNN_TENSOR_NCHW;  // KCRS, KRSC (NHWC) or KCRS_VECT_C
    int spatial_dims = 2;
    int64_t pad[kMaxConvSpatialDims] = {};
    int64_t stride[kMaxConvSpatialDims] = {};
    int64_t dilation[kMaxConvSpatialDims] = {};
    int64_t groups = 1;
    cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION;  // CONVOLUTION flips the filter
    cudnnDataType_t compute_type = CUDNN_DATA_FLOAT;
    cudnnMathType_t math_type = CUDNN_DEFAULT_MATH;
    // result = alpha * op + beta * result; beta == 0 never reads the result. (The fused forward has no
    // beta: it is 0, and alpha is its alpha1.)
    double alpha = 1.0, beta = 0.0;
    ConvEpilogue epilogue;
    // The cuDNN algorithm (enum value of the direction) the call asked for; -1 where none was (a ranking
    // or workspace question about every algorithm). Part of the problem string, so that a logged call
    // re-runs with the same algorithm.
    int algorithm = -1;

    // The tensor the call writes: y forward, x (dx) backward data, w (dw) backward filter.
    const TensorGeometry &result() const;
    int64_t batch() const { return x.dims[0]; }
    int64_t input_channels() const { return x.dims[1]; }
    int64_t output_channels() const { return w.dims[0]; }
    int64_t channels_per_group() const { return x.dims[1] / groups; }
    int64_t filters_per_group() const { return w.dims[0] / groups; }
    // Per spatial dim i (0 is the outermost, H of a 2-d convolution).
    int64_t input_extent(int i) const { return x.dims[i + 2]; }
    int64_t filter_extent(int i) const { return w.dims[i + 2]; }
    int64_t output_extent(int i) const { return y.dims[i + 2]; }
    // Products over the spatial dims.
    int64_t input_size() const;
    int64_t filter_size() const;
    int64_t output_size() const;
    // 2 N K (C / groups) * filter size * output size: one multiply-add per filter tap and output.
    double flops() const;

    bool operator==(const ConvProblem &other) const;
};

// What each direction reads and writes: forward reads x, w (and z, bias when fused) and writes y;
// backward data reads w and dy (`y`) and writes dx; backward filter reads x and dy (`y`) and writes dw.
// `result` is the written tensor (read too when beta != 0).
struct ConvBuffers {
    const void *x = nullptr;
    const void *w = nullptr;
    const void *y = nullptr;
    const void *z = nullptr;
    const void *bias = nullptr;
    void *result = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const ConvProblem &problem, const ConvBuffers &buffers);

// The forward output dims [N, K, spatial...] of input `x` and filter `w` under the problem's geometry
// (pad, stride, dilation); a spatial dim is 0 or less where the dilated filter overhangs the input.
void conv_output_dims(const ConvProblem &problem, const int64_t *x_dims, const int64_t *w_dims, int64_t *out);

ProblemString to_problem_string(const ConvProblem &problem);
bool parse_conv_problem(const ProblemString &text, ConvProblem *problem, std::string *error);

}  // namespace librednn
