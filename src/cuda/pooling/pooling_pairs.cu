// The paired max-pooling kernels (pooling_pairs.hpp).
#include "cuda/pooling/pooling_pairs.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/pooling/pooling_packed.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kPairs = 4;  // pairs of channels in a 16-byte vector

struct PairsArgs {
    int in_h, in_w, stride_h, stride_w, pad_h, pad_w;
    int64_t work;                        // output vectors
    int64_t vectors_per_position;        // C / 8
    FastDivisor vectors, width, height;  // output vector -> (channel vector, column, row, image)
    int propagate, plain;                // plain: alpha 1, beta 0 (the maxima stored as they are)
    float alpha, beta;
    const void *x;
    void *y;
    uint8_t *argmax;  // the backward's argmax pass: a byte an output element
};

template <class T>
struct alignas(16) PairVector {
    PairOf<T> pair[kPairs];
};

template <class T>
__device__ __forceinline__ PairOf<T> pair_max(PairOf<T> a, PairOf<T> b, bool propagate) {
    return propagate ? __hmax2_nan(a, b) : __hmax2(a, b);
}

// Output v's window: its taps' 16-byte vectors, loaded all at once (those outside the image left unread).
template <class T, int kWindow>
struct WindowTaps {
    PairVector<T> in[kWindow][kWindow];
    bool row_in[kWindow], column_in[kWindow];
    bool empty;  // no tap inside the image

    __device__ __forceinline__ bool inside(int i, int j) const { return row_in[i] && column_in[j]; }
};

template <class T, int kWindow>
__device__ __forceinline__ void load_window(const PairsArgs &a, int64_t v, WindowTaps<T, kWindow> &w) {
    // As 16-byte words: loaded as PairVector (half2 members), a tap was four 4-byte loads.
    const auto *x = static_cast<const uint4 *>(a.x);
    const int64_t position = divide(a.vectors, v);
    const int64_t cv = v - position * a.vectors_per_position;
    const int64_t rest = divide(a.width, position);
    const int ow = static_cast<int>(position - rest * a.width.divisor);
    const int64_t n = divide(a.height, rest);
    const int oh = static_cast<int>(rest - n * a.height.divisor);
    const int sh = oh * a.stride_h - a.pad_h, sw = ow * a.stride_w - a.pad_w;
    const int64_t row_step = a.in_w * a.vectors_per_position;
    const int64_t corner = ((n * a.in_h + sh) * a.in_w + sw) * a.vectors_per_position + cv;
    int rows = 0, columns = 0;
#pragma unroll
    for (int i = 0; i < kWindow; ++i) {
        w.row_in[i] = sh + i >= 0 && sh + i < a.in_h;
        w.column_in[i] = sw + i >= 0 && sw + i < a.in_w;
        rows += w.row_in[i];
        columns += w.column_in[i];
    }
    w.empty = rows * columns == 0;
#pragma unroll
    for (int i = 0; i < kWindow; ++i) {
#pragma unroll
        for (int j = 0; j < kWindow; ++j) {
            if (w.inside(i, j)) {
                const uint4 bits = x[corner + i * row_step + j * a.vectors_per_position];
                memcpy(&w.in[i][j], &bits, sizeof bits);
            }
        }
    }
}

// The lane-wise maxima of the window's taps. Where no tap counts: NaN where NaN is skipped (__hmax2
// returns the other operand), -infinity where it propagates.
template <class T, int kWindow>
__device__ __forceinline__ void window_maxima(const PairsArgs &a, const WindowTaps<T, kWindow> &w,
                                              PairOf<T> (&best)[kPairs]) {
    const uint32_t none_bits = a.propagate ? kMinusInfinityPairBits<T> : 0x7fff7fffu;
    const PairOf<T> none = *reinterpret_cast<const PairOf<T> *>(&none_bits);
#pragma unroll
    for (int k = 0; k < kPairs; ++k) best[k] = none;
#pragma unroll
    for (int i = 0; i < kWindow; ++i) {
#pragma unroll
        for (int j = 0; j < kWindow; ++j) {
            if (w.inside(i, j)) {
#pragma unroll
                for (int k = 0; k < kPairs; ++k) best[k] = pair_max<T>(best[k], w.in[i][j].pair[k], a.propagate);
            }
        }
    }
}

template <class T, int kWindow>
__global__ void __launch_bounds__(kBlock) max_pairs_kernel(const __grid_constant__ PairsArgs a) {
    using V = PairVector<T>;
    auto *y = static_cast<V *>(a.y);
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        WindowTaps<T, kWindow> w;
        load_window(a, v, w);
        PairOf<T> best[kPairs];
        window_maxima(a, w, best);
        const bool empty = w.empty;
        V result;
        if (a.plain && !a.propagate && !empty) {
            // A window of NaNs leaves NaN: it gives 0.
#pragma unroll
            for (int k = 0; k < kPairs; ++k) {
                const PairOf<T> nan_lanes = __hisnan2(best[k]);  // 1.0 where NaN
                const uint32_t bits = *reinterpret_cast<const uint32_t *>(&best[k]);
                const uint32_t mask = *reinterpret_cast<const uint32_t *>(&nan_lanes);
                // Lanes whose mask is 1.0 (non-zero) are cleared.
                const uint32_t keep = (mask & 0xffffu ? 0u : 0xffffu) | (mask & 0xffff0000u ? 0u : 0xffff0000u);
                const uint32_t cleared = bits & keep;
                result.pair[k] = *reinterpret_cast<const PairOf<T> *>(&cleared);
            }
        } else if (a.plain && !empty) {
#pragma unroll
            for (int k = 0; k < kPairs; ++k) result.pair[k] = best[k];
        } else {
            V old;
            if (a.beta != 0.0f) {
                const uint4 bits = reinterpret_cast<const uint4 *>(y)[v];
                memcpy(&old, &bits, sizeof bits);
            }
#pragma unroll
            for (int k = 0; k < kPairs; ++k) {
                const T *lanes = reinterpret_cast<const T *>(&best[k]);
                const T *old_lanes = reinterpret_cast<const T *>(&old.pair[k]);
                T out[2];
#pragma unroll
                for (int l = 0; l < 2; ++l) {
                    float value = to_compute<float>(lanes[l]);
                    if (empty || (value != value && !a.propagate)) value = 0.0f;
                    value *= a.alpha;
                    if (a.beta != 0.0f) value += a.beta * to_compute<float>(old_lanes[l]);
                    out[l] = from_compute<T>(value);
                }
                result.pair[k] = *reinterpret_cast<const PairOf<T> *>(out);
            }
        }
        uint4 bits;
        memcpy(&bits, &result, sizeof bits);
        reinterpret_cast<uint4 *>(y)[v] = bits;  // one 16-byte store (as V, four of 4 bytes)
    }
}

// Lanes of `in` equal to the window's maximum `best`, as a 16-bit mask a lane: where NaN propagates and
// the maximum is NaN, the NaN lanes (the first NaN is the maximum's position).
template <class T>
__device__ __forceinline__ uint32_t maximum_lanes(PairOf<T> in, PairOf<T> best, bool propagate) {
    const uint32_t equal = __heq2_mask(in, best);
    return propagate ? equal | (__hneu2_mask(in, in) & __hneu2_mask(best, best)) : equal;
}

// The backward's argmax pass: each output element's window position of its first maximum (row-major in the
// window, a byte), 255 where the window holds none (no tap inside the image, or only NaNs where NaN is
// skipped) -- what the packed kernels' argmax pass writes, from paired maxima: a tap's two lanes are
// compared with their maxima in one instruction, and the positions kept two lanes a word.
template <class T, int kWindow>
__global__ void __launch_bounds__(kBlock) argmax_pairs_kernel(const __grid_constant__ PairsArgs a) {
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        WindowTaps<T, kWindow> w;
        load_window(a, v, w);
        PairOf<T> best[kPairs];
        window_maxima(a, w, best);
        // From the window's last tap to its first, so that of equal maxima the first stays.
        uint32_t where[kPairs];
#pragma unroll
        for (int k = 0; k < kPairs; ++k) where[k] = 0x00ff00ffu;
#pragma unroll
        for (int i = kWindow - 1; i >= 0; --i) {
#pragma unroll
            for (int j = kWindow - 1; j >= 0; --j) {
                if (!w.inside(i, j)) continue;
                const uint32_t index = static_cast<uint32_t>(i * kWindow + j) * 0x00010001u;
#pragma unroll
                for (int k = 0; k < kPairs; ++k) {
                    const uint32_t mask = maximum_lanes<T>(w.in[i][j].pair[k], best[k], a.propagate);
                    where[k] = (where[k] & ~mask) | (index & mask);
                }
            }
        }
        // Lanes 0-7's bytes: the low byte of each 16-bit position.
        uint2 bytes;
        bytes.x = __byte_perm(where[0], where[1], 0x6420);
        bytes.y = __byte_perm(where[2], where[3], 0x6420);
        reinterpret_cast<uint2 *>(a.argmax)[v] = bytes;
    }
}

template <class T>
Status run(cudaStream_t stream, const PoolingProblem &p, const void *x, void *y, uint8_t *argmax) {
    PairsArgs a{};
    a.in_h = static_cast<int>(p.x.dims[2]);
    a.in_w = static_cast<int>(p.x.dims[3]);
    a.stride_h = static_cast<int>(p.stride[0]);
    a.stride_w = static_cast<int>(p.stride[1]);
    a.pad_h = static_cast<int>(p.pad[0]);
    a.pad_w = static_cast<int>(p.pad[1]);
    a.vectors_per_position = p.x.dims[1] / (2 * kPairs);
    a.work = p.y.element_count() / (2 * kPairs);
    a.vectors = make_fast_divisor(a.vectors_per_position);
    a.width = make_fast_divisor(p.y.dims[3]);
    a.height = make_fast_divisor(p.y.dims[2]);
    a.propagate = p.nan_opt == CUDNN_PROPAGATE_NAN;
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    a.plain = p.alpha == 1.0 && p.beta == 0.0;
    a.x = x;
    a.y = y;
    a.argmax = argmax;
    if (a.work == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.work, kBlock, kBlock, 4);
    const bool window3 = p.window[0] == 3;
    if (argmax != nullptr) {
        if (window3) {
            argmax_pairs_kernel<T, 3><<<grid, kBlock, 0, stream>>>(a);
        } else {
            argmax_pairs_kernel<T, 2><<<grid, kBlock, 0, stream>>>(a);
        }
        return check_launch("pooling_argmax_pairs_kernel");
    }
    if (window3) {
        max_pairs_kernel<T, 3><<<grid, kBlock, 0, stream>>>(a);
    } else {
        max_pairs_kernel<T, 2><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch("pooling_max_pairs_kernel");
}

// The max modes over packed NHWC half and bfloat16 with 2x2 or 3x3 windows (either direction: the
// backward's argmax pass runs the forward's window).
bool paired_windows(const PoolingProblem &p) {
    // LIBREDNN_POOLING_PAIRS=0 leaves these problems to the packed kernels (to compare the two).
    static const bool off = switched_off("LIBREDNN_POOLING_PAIRS");
    if (off || p.spatial_dims != 2 || !p.is_max()) return false;
    if (p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    if (p.window[0] != p.window[1] || (p.window[0] != 2 && p.window[0] != 3)) return false;
    return pooling_packed_nhwc(p) && p.x.dims[1] % 8 == 0;
}

}  // namespace

bool pooling_pairs_applicable(const PoolingProblem &p, const PoolingBuffers &b) {
    if (p.direction != Direction::forward || !paired_windows(p) || b.result == b.x) return false;
    return aligned_or_null(b.x, 16) && aligned_or_null(b.result, 16);
}

Status pooling_pairs(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    if (p.x.dtype == CUDNN_DATA_HALF) return run<__half>(stream, p, b.x, b.result, nullptr);
    return run<__nv_bfloat16>(stream, p, b.x, b.result, nullptr);
}

bool pooling_pairs_argmax_applicable(const PoolingProblem &p, const PoolingBuffers &b) {
    return p.direction == Direction::backward && paired_windows(p) && aligned_or_null(b.x, 16);
}

Status pooling_pairs_argmax(cudaStream_t stream, const PoolingProblem &p, const void *x, uint8_t *argmax) {
    if (p.x.dtype == CUDNN_DATA_HALF) return run<__half>(stream, p, x, nullptr, argmax);
    return run<__nv_bfloat16>(stream, p, x, nullptr, argmax);
}

}  // namespace librednn::cuda
