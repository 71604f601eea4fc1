// The fused ops' per-channel kernels (fused_ops.hpp).
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/fused_ops/fused_ops.hpp"

#include <cstdint>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;

// One tensor's dims and strides, by value (NCHW order; dim 1 the channel).
struct Walk {
    int nb_dims = 0;
    int64_t dims[kMaxDims] = {};
    int64_t strides[kMaxDims] = {};
};

Walk walk_of(const TensorGeometry &g) {
    Walk w;
    w.nb_dims = g.nb_dims;
    for (int i = 0; i < g.nb_dims; ++i) {
        w.dims[i] = g.dims[i];
        w.strides[i] = g.strides[i];
    }
    return w;
}

// The offset of element `position` in row-major order of the walk's dims, and its channel.
__device__ __forceinline__ int64_t offset_of(const Walk &w, int64_t position, int64_t *channel) {
    int64_t offset = 0;
    for (int axis = w.nb_dims - 1; axis >= 0; --axis) {
        const int64_t index = position % w.dims[axis];
        position /= w.dims[axis];
        offset += index * w.strides[axis];
        if (axis == 1) *channel = index;
    }
    return offset;
}

struct PrologueArgs {
    Walk x;
    int64_t count = 0;
    ScalarType x_type = ScalarType::f32, eq_type = ScalarType::f32;
    int64_t eq_stride = 0;
    const void *in = nullptr, *scale = nullptr, *bias = nullptr;
    void *out = nullptr;
    bool relu = false;
};

template <class C>
__device__ __forceinline__ C fma_of(C a, C b, C c);
template <>
__device__ __forceinline__ float fma_of(float a, float b, float c) {
    return fmaf(a, b, c);
}
template <>
__device__ __forceinline__ double fma_of(double a, double b, double c) {
    return fma(a, b, c);
}

template <class C>
__global__ void __launch_bounds__(kBlock) prologue_kernel(const __grid_constant__ PrologueArgs a) {
    for (int64_t e = blockIdx.x * int64_t(kBlock) + threadIdx.x; e < a.count; e += int64_t(gridDim.x) * kBlock) {
        int64_t c = 0;
        const int64_t offset = offset_of(a.x, e, &c);
        const C s = a.scale ? load_as<C>(a.scale, a.eq_type, c * a.eq_stride) : C(1);
        const C b = a.bias ? load_as<C>(a.bias, a.eq_type, c * a.eq_stride) : C(0);
        C v = fma_of<C>(load_as<C>(a.in, a.x_type, offset), s, b);
        if (a.relu && v < C(0)) v = C(0);
        store_as<C>(a.out, a.x_type, offset, v);
    }
}

struct SumArgs {
    Walk others;  // y's dims with the channel dim at 1
    int64_t channel_stride = 0, channels = 0, per_channel = 0;
    ScalarType y_type = ScalarType::f32, stats_type = ScalarType::f32;
    int64_t stats_stride = 0;
    const void *y = nullptr;
    void *sum = nullptr, *square_sum = nullptr;
};

__global__ void __launch_bounds__(kBlock) channel_sum_kernel(const __grid_constant__ SumArgs a) {
    __shared__ double sums[kBlock], squares[kBlock];
    for (int64_t k = blockIdx.x; k < a.channels; k += gridDim.x) {
        double total = 0.0, square = 0.0;
        for (int64_t e = threadIdx.x; e < a.per_channel; e += kBlock) {
            int64_t unused = 0;
            const double v = load_as<double>(a.y, a.y_type, offset_of(a.others, e, &unused) + k * a.channel_stride);
            total += v;
            square += v * v;
        }
        sums[threadIdx.x] = total;
        squares[threadIdx.x] = square;
        __syncthreads();
        for (int width = kBlock / 2; width > 0; width /= 2) {
            if (threadIdx.x < width) {
                sums[threadIdx.x] += sums[threadIdx.x + width];
                squares[threadIdx.x] += squares[threadIdx.x + width];
            }
            __syncthreads();
        }
        if (threadIdx.x == 0) {
            if (a.sum) store_as<double>(a.sum, a.stats_type, k * a.stats_stride, sums[0]);
            if (a.square_sum) store_as<double>(a.square_sum, a.stats_type, k * a.stats_stride, squares[0]);
        }
        __syncthreads();
    }
}

struct FinalizeArgs {
    int64_t channels = 0;
    bool training = false;
    ScalarType param_type = ScalarType::f32, eq_type = ScalarType::f32, stats_type = ScalarType::f32;
    int64_t param_stride = 0, eq_stride = 0, stats_stride = 0;
    FusedOpsBuffers b;
    bool saved_mean = false, saved_invstd = false, running_mean = false, running_var = false;
};

__global__ void __launch_bounds__(kBlock) finalize_kernel(const __grid_constant__ FinalizeArgs a) {
    const int64_t c = blockIdx.x * int64_t(kBlock) + threadIdx.x;
    if (c >= a.channels) return;
    const int64_t po = c * a.param_stride;
    const double scale = load_as<double>(a.b.bn_scale, a.param_type, po);
    const double bias = load_as<double>(a.b.bn_bias, a.param_type, po);
    double mean, invstd;
    if (a.training) {
        const double m = static_cast<double>(a.b.accumulation_count), f = a.b.exp_avg_factor;
        mean = load_as<double>(a.b.y_sum, a.stats_type, c * a.stats_stride) / m;
        const double variance = load_as<double>(a.b.y_square_sum, a.stats_type, c * a.stats_stride) / m - mean * mean;
        invstd = 1.0 / sqrt(variance + a.b.epsilon);
        if (a.saved_mean) store_as<double>(a.b.saved_mean, a.param_type, po, mean);
        if (a.saved_invstd) store_as<double>(a.b.saved_invstd, a.param_type, po, invstd);
        if (a.running_mean) {
            const double old = load_as<double>(a.b.running_mean, a.param_type, po);
            store_as<double>(a.b.running_mean, a.param_type, po, (1.0 - f) * old + f * mean);
        }
        if (a.running_var) {
            const double old = load_as<double>(a.b.running_var, a.param_type, po);
            store_as<double>(a.b.running_var, a.param_type, po, (1.0 - f) * old + f * (variance * m / (m - 1.0)));
        }
    } else {
        mean = load_as<double>(a.b.running_mean, a.param_type, po);
        invstd = 1.0 / sqrt(load_as<double>(a.b.running_var, a.param_type, po) + a.b.epsilon);
    }
    const double eq_scale = scale * invstd;
    store_as<double>(a.b.eq_scale, a.eq_type, c * a.eq_stride, eq_scale);
    store_as<double>(a.b.eq_bias, a.eq_type, c * a.eq_stride, bias - mean * eq_scale);
}

bool floating(cudnnDataType_t type) {
    return type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE || type == CUDNN_DATA_HALF ||
           type == CUDNN_DATA_BFLOAT16;
}

ScalarType scalar_of(cudnnDataType_t type) {
    ScalarType scalar = ScalarType::f32;
    scalar_type_of(type, &scalar);
    return scalar;
}

}  // namespace

const char *fused_ops_unsupported_reason(const FusedOpsProblem &problem) {
    if (problem.convolves() && !floating(problem.conv.x.dtype))
        return "the CUDA fused ops take float, double, half or bfloat16 x";
    return nullptr;
}

Status fused_scale_bias_activation(cudaStream_t stream, const FusedOpsProblem &problem, const void *x,
                                   const void *scale, const void *bias, void *out) {
    PrologueArgs a;
    a.x = walk_of(problem.conv.x);
    a.count = problem.conv.x.element_count();
    a.x_type = scalar_of(problem.conv.x.dtype);
    a.eq_type = scalar_of(problem.eq_scale_bias.dtype);
    a.eq_stride = problem.eq_scale_bias.nb_dims > 1 ? problem.eq_scale_bias.strides[1] : 0;
    a.in = x;
    a.scale = scale;
    a.bias = bias;
    a.out = out;
    a.relu = problem.activation == CUDNN_ACTIVATION_RELU;
    if (a.count == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.count, kBlock, kBlock);
    if (problem.conv.x.dtype == CUDNN_DATA_DOUBLE)
        prologue_kernel<double><<<grid, kBlock, 0, stream>>>(a);
    else
        prologue_kernel<float><<<grid, kBlock, 0, stream>>>(a);
    return check_launch("fused_ops prologue_kernel");
}

Status fused_channel_sums(cudaStream_t stream, const FusedOpsProblem &problem, const void *y, void *sum,
                          void *square_sum) {
    const TensorGeometry &g = problem.conv.y;
    SumArgs a;
    a.others = walk_of(g);
    a.others.dims[1] = 1;
    a.channel_stride = g.strides[1];
    a.channels = g.dims[1];
    a.per_channel = g.element_count() / (g.dims[1] > 0 ? g.dims[1] : 1);
    a.y_type = scalar_of(g.dtype);
    a.stats_type = scalar_of(problem.stats.dtype);
    a.stats_stride = problem.stats.strides[1];
    a.y = y;
    a.sum = sum;
    a.square_sum = square_sum;
    if (a.channels == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.channels, 1, kBlock);
    channel_sum_kernel<<<grid, kBlock, 0, stream>>>(a);
    return check_launch("fused_ops channel_sum_kernel");
}

Status fused_bn_finalize(cudaStream_t stream, const FusedOpsProblem &problem, const FusedOpsBuffers &buffers) {
    FinalizeArgs a;
    a.channels = problem.channels();
    a.training = problem.ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING;
    a.param_type = scalar_of(problem.bn_parameters.dtype);
    a.eq_type = scalar_of(problem.eq_scale_bias.dtype);
    a.param_stride = problem.bn_parameters.strides[1];
    a.eq_stride = problem.eq_scale_bias.strides[1];
    if (a.training) {
        a.stats_type = scalar_of(problem.stats.dtype);
        a.stats_stride = problem.stats.strides[1];
    }
    a.b = buffers;
    a.saved_mean = problem.has_saved_mean;
    a.saved_invstd = problem.has_saved_invstd;
    a.running_mean = a.training && problem.has_running_mean;
    a.running_var = a.training && problem.has_running_var;
    if (a.channels == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = static_cast<int>((a.channels + kBlock - 1) / kBlock);
    finalize_kernel<<<grid, kBlock, 0, stream>>>(a);
    return check_launch("fused_ops finalize_kernel");
}

}  // namespace librednn::cuda
