// The pooling kernels (pooling.hpp): a grid-stride loop over the result's elements in its memory order
// (so that neighbouring threads touch neighbouring addresses in NCHW and NHWC alike).
#include "cuda/pooling/pooling.hpp"

#include "cuda/pooling/pooling_global.hpp"
#include "cuda/pooling/pooling_packed.hpp"
#include "cuda/pooling/pooling_pairs.hpp"
#include "cuda/pooling/pooling_strips.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kDims = 3;  // spatial dims, padded in front with extents of 1
constexpr int kBlock = 256;

struct PoolArgs {
    int in[kDims], out[kDims], window[kDims], pad[kDims], stride[kDims];
    int64_t xs[5], outs[5], dys[5];  // element strides (n, c, d, h, w) of x, the result, dy
    int64_t extents[5];              // the result's dims (n, c, d, h, w)
    int order[5];                    // the result's dims from the largest stride to the smallest
    int64_t total;
    int max, include_padding, propagate;
    ScalarType type;
    const void *x, *dy;
    void *result;
    double alpha, beta;
};

// The result coordinates of element `linear` of the result in its memory order.
__device__ __forceinline__ void coordinates(const PoolArgs &a, int64_t linear, int64_t (&at)[5]) {
#pragma unroll
    for (int k = 4; k >= 0; --k) {
        const int d = a.order[k];
        at[d] = linear % a.extents[d];
        linear /= a.extents[d];
    }
}

__device__ __forceinline__ int64_t offset5(const int64_t (&s)[5], int64_t n, int64_t c, const int (&p)[kDims]) {
    return n * s[0] + c * s[1] + p[0] * s[2] + p[1] * s[3] + p[2] * s[4];
}

// The window of output `o`: its first maximum's input position (max modes; `found` false when it
// holds nothing to take) and value, or its sum and divisor (averages).
template <class C>
struct Window {
    C value = C(0);
    bool found = false;
    int best[kDims] = {};
    int count = 0;
};

// Walks only the part of the window over the input, in window order: a window that is mostly padding
// costs what it covers, not its size.
template <class C>
__device__ Window<C> reduce_window(const PoolArgs &a, int64_t n, int64_t c, const int (&o)[kDims]) {
    Window<C> w;
    int lo[kDims], hi[kDims];
#pragma unroll
    for (int d = 0; d < kDims; ++d) {
        const int64_t start = static_cast<int64_t>(o[d]) * a.stride[d] - a.pad[d];
        const int64_t end = start + a.window[d];
        lo[d] = static_cast<int>(start < 0 ? 0 : start);
        hi[d] = static_cast<int>(end < a.in[d] ? end : a.in[d]);
    }
    int p[kDims];
    for (p[0] = lo[0]; p[0] < hi[0]; ++p[0]) {
        for (p[1] = lo[1]; p[1] < hi[1]; ++p[1]) {
            for (p[2] = lo[2]; p[2] < hi[2]; ++p[2]) {
                ++w.count;
                const C v = load_as<C>(a.x, a.type, offset5(a.xs, n, c, p));
                if (!a.max) {
                    w.value += v;
                    continue;
                }
                // The first of equal maxima stays; a propagated NaN wins and then stays.
                if (v != v && !a.propagate) continue;
                if (w.found && w.value != w.value) continue;
                if (!w.found || v != v || v > w.value) {
                    w.value = v;
                    w.found = true;
                    w.best[0] = p[0], w.best[1] = p[1], w.best[2] = p[2];
                }
            }
        }
    }
    return w;
}

template <class C>
__device__ __forceinline__ C divisor(const PoolArgs &a, int count) {
    // In C: the product of three windows up to 2^31 overflows int.
    return a.include_padding ? static_cast<C>(a.window[0]) * static_cast<C>(a.window[1]) * static_cast<C>(a.window[2])
                             : static_cast<C>(count);
}

template <class C>
__device__ __forceinline__ void blend_store(const PoolArgs &a, int64_t offset, C value) {
    value *= static_cast<C>(a.alpha);
    if (a.beta != 0.0) value += static_cast<C>(a.beta) * load_as<C>(a.result, a.type, offset);
    store_as<C>(a.result, a.type, offset, value);
}

template <class C>
__global__ void __launch_bounds__(kBlock) pooling_forward_kernel(const __grid_constant__ PoolArgs a) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t at[5];
        coordinates(a, e, at);
        const int o[kDims] = {static_cast<int>(at[2]), static_cast<int>(at[3]), static_cast<int>(at[4])};
        const Window<C> w = reduce_window<C>(a, at[0], at[1], o);
        C value = C(0);
        if (a.max) {
            if (w.found) value = w.value;
        } else if (w.count > 0) {
            value = w.value / divisor<C>(a, w.count);
        }
        blend_store<C>(a, offset5(a.outs, at[0], at[1], o), value);
    }
}

template <class C>
__global__ void __launch_bounds__(kBlock) pooling_backward_kernel(const __grid_constant__ PoolArgs a) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t at[5];
        coordinates(a, e, at);
        const int q[kDims] = {static_cast<int>(at[2]), static_cast<int>(at[3]), static_cast<int>(at[4])};
        // The outputs whose windows cover q: o * stride - pad <= q <= o * stride - pad + window - 1.
        int first[kDims], last[kDims];
#pragma unroll
        for (int d = 0; d < kDims; ++d) {
            // In 64 bits: pad and window reach 2^31 - 1.
            const int64_t top = static_cast<int64_t>(q[d]) + a.pad[d];
            first[d] =
                top - a.window[d] + 1 <= 0 ? 0 : static_cast<int>((top - a.window[d] + a.stride[d]) / a.stride[d]);
            last[d] = static_cast<int>(min(top / a.stride[d], static_cast<int64_t>(a.out[d] - 1)));
        }
        C sum = C(0);
        int o[kDims];
        for (o[0] = first[0]; o[0] <= last[0]; ++o[0])
            for (o[1] = first[1]; o[1] <= last[1]; ++o[1])
                for (o[2] = first[2]; o[2] <= last[2]; ++o[2]) {
                    const C g = load_as<C>(a.dy, a.type, offset5(a.dys, at[0], at[1], o));
                    if (a.max) {
                        const Window<C> w = reduce_window<C>(a, at[0], at[1], o);
                        if (w.found && w.best[0] == q[0] && w.best[1] == q[1] && w.best[2] == q[2]) sum += g;
                    } else {
                        // The window's count of inputs, for the excluding average.
                        int count = 1;
#pragma unroll
                        for (int d = 0; d < kDims; ++d) {
                            const int64_t start = static_cast<int64_t>(o[d]) * a.stride[d] - a.pad[d];
                            const int64_t lo = start < 0 ? 0 : start;
                            const int64_t hi = min(start + a.window[d], static_cast<int64_t>(a.in[d]));
                            count *= static_cast<int>(hi - lo);
                        }
                        sum += g / divisor<C>(a, count);
                    }
                }
        blend_store<C>(a, offset5(a.outs, at[0], at[1], q), sum);
    }
}

void strides5(const TensorGeometry &g, int64_t (&out)[5]) {
    const int spatial = g.nb_dims - 2;
    out[0] = g.strides[0];
    out[1] = g.strides[1];
    for (int d = 0; d < kDims; ++d) {
        const int from = d - (kDims - spatial);
        out[2 + d] = from >= 0 ? g.strides[2 + from] : 0;
    }
}

}  // namespace

const char *pooling_unsupported_reason(const PoolingProblem &p) {
    if (p.spatial_dims > kDims) return "the CUDA kernels pool over 1 to 3 spatial dims";
    ScalarType type;
    if (!scalar_type_of(p.x.dtype, &type) || !is_floating(type))
        return "the CUDA kernels take float, double, half and bfloat16";
    return nullptr;
}

Status pooling(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &buffers) {
    if (const char *reason = pooling_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    if (pooling_strips_applicable(p, buffers)) return pooling_strips(stream, p, buffers);
    if (pooling_global_applicable(p, buffers)) return pooling_global(stream, p, buffers);
    if (pooling_pairs_applicable(p, buffers)) return pooling_pairs(stream, p, buffers);
    if (pooling_packed_applicable(p, buffers)) return pooling_packed(stream, p, buffers);
    const bool forward = p.direction == Direction::forward;
    const TensorGeometry &out = p.result();
    PoolArgs a{};
    const int spatial = p.spatial_dims;
    for (int d = 0; d < kDims; ++d) {
        const int from = d - (kDims - spatial);
        const bool used = from >= 0;
        a.in[d] = used ? static_cast<int>(p.x.dims[2 + from]) : 1;
        a.out[d] = used ? static_cast<int>(p.y.dims[2 + from]) : 1;
        a.window[d] = used ? static_cast<int>(p.window[from]) : 1;
        a.pad[d] = used ? static_cast<int>(p.pad[from]) : 0;
        a.stride[d] = used ? static_cast<int>(p.stride[from]) : 1;
    }
    strides5(p.x, a.xs);
    strides5(out, a.outs);
    if (!forward) strides5(p.dy, a.dys);
    a.extents[0] = out.dims[0];
    a.extents[1] = out.dims[1];
    for (int d = 0; d < kDims; ++d) a.extents[2 + d] = forward ? a.out[d] : a.in[d];
    // Iteration order: the result's dims by decreasing stride (ties: N, C, then spatial).
    int order[5] = {0, 1, 2, 3, 4};
    std::stable_sort(order, order + 5, [&](int l, int r) { return a.outs[l] > a.outs[r]; });
    for (int k = 0; k < 5; ++k) a.order[k] = order[k];
    a.total = out.element_count();
    a.max = p.is_max();
    a.include_padding = p.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    a.propagate = p.nan_opt == CUDNN_PROPAGATE_NAN;
    scalar_type_of(p.x.dtype, &a.type);
    a.x = buffers.x;
    a.dy = buffers.dy;
    a.result = buffers.result;
    a.alpha = p.alpha;
    a.beta = p.beta;
    if (a.total == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.total, kBlock, kBlock, 4);
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    if (forward) {
        if (in_double) {
            pooling_forward_kernel<double><<<grid, kBlock, 0, stream>>>(a);
        } else {
            pooling_forward_kernel<float><<<grid, kBlock, 0, stream>>>(a);
        }
        return check_launch("pooling_forward_kernel");
    }
    if (in_double) {
        pooling_backward_kernel<double><<<grid, kBlock, 0, stream>>>(a);
    } else {
        pooling_backward_kernel<float><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch("pooling_backward_kernel");
}

}  // namespace librednn::cuda
