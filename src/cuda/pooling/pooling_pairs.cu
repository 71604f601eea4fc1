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
};

template <class T>
struct alignas(16) PairVector {
    PairOf<T> pair[kPairs];
};

template <class T>
__device__ __forceinline__ PairOf<T> pair_max(PairOf<T> a, PairOf<T> b, bool propagate) {
    return propagate ? __hmax2_nan(a, b) : __hmax2(a, b);
}

template <class T, int kWindow>
__global__ void __launch_bounds__(kBlock) max_pairs_kernel(const __grid_constant__ PairsArgs a) {
    using V = PairVector<T>;
    const auto *x = static_cast<const V *>(a.x);
    auto *y = static_cast<V *>(a.y);
    // "None yet": NaN where NaN is skipped (__hmax2 returns the other operand), -infinity where it propagates.
    const uint32_t none_bits = a.propagate ? kMinusInfinityPairBits<T> : 0x7fff7fffu;
    const PairOf<T> none = *reinterpret_cast<const PairOf<T> *>(&none_bits);
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t position = divide(a.vectors, v);
        const int64_t cv = v - position * a.vectors_per_position;
        const int64_t rest = divide(a.width, position);
        const int ow = static_cast<int>(position - rest * a.width.divisor);
        const int64_t n = divide(a.height, rest);
        const int oh = static_cast<int>(rest - n * a.height.divisor);
        const int sh = oh * a.stride_h - a.pad_h, sw = ow * a.stride_w - a.pad_w;
        const int64_t row_step = a.in_w * a.vectors_per_position;
        const int64_t corner = ((n * a.in_h + sh) * a.in_w + sw) * a.vectors_per_position + cv;
        bool row_in[kWindow], column_in[kWindow];
        int rows = 0, columns = 0;
#pragma unroll
        for (int i = 0; i < kWindow; ++i) {
            row_in[i] = sh + i >= 0 && sh + i < a.in_h;
            column_in[i] = sw + i >= 0 && sw + i < a.in_w;
            rows += row_in[i];
            columns += column_in[i];
        }
        V in[kWindow][kWindow];
#pragma unroll
        for (int i = 0; i < kWindow; ++i) {
#pragma unroll
            for (int j = 0; j < kWindow; ++j) {
                if (row_in[i] && column_in[j]) in[i][j] = x[corner + i * row_step + j * a.vectors_per_position];
            }
        }
        PairOf<T> best[kPairs];
#pragma unroll
        for (int k = 0; k < kPairs; ++k) best[k] = none;
#pragma unroll
        for (int i = 0; i < kWindow; ++i) {
#pragma unroll
            for (int j = 0; j < kWindow; ++j) {
                if (row_in[i] && column_in[j]) {
#pragma unroll
                    for (int k = 0; k < kPairs; ++k) best[k] = pair_max<T>(best[k], in[i][j].pair[k], a.propagate);
                }
            }
        }
        const bool empty = rows * columns == 0;
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
            if (a.beta != 0.0f) old = y[v];
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
        y[v] = result;
    }
}

template <class T>
Status run(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
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
    a.x = b.x;
    a.y = b.result;
    if (a.work == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.work, kBlock, kBlock, 4);
    if (p.window[0] == 3) {
        max_pairs_kernel<T, 3><<<grid, kBlock, 0, stream>>>(a);
    } else {
        max_pairs_kernel<T, 2><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch("pooling_max_pairs_kernel");
}

}  // namespace

bool pooling_pairs_applicable(const PoolingProblem &p, const PoolingBuffers &b) {
    // LIBREDNN_POOLING_PAIRS=0 leaves these problems to the packed kernels (to compare the two).
    static const bool off = switched_off("LIBREDNN_POOLING_PAIRS");
    if (off || p.spatial_dims != 2 || p.direction != Direction::forward || !p.is_max()) return false;
    if (p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    if (p.window[0] != p.window[1] || (p.window[0] != 2 && p.window[0] != 3)) return false;
    if (!pooling_packed_nhwc(p) || p.x.dims[1] % 8 != 0 || b.result == b.x) return false;
    return aligned_or_null(b.x, 16) && aligned_or_null(b.result, 16);
}

Status pooling_pairs(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    if (p.x.dtype == CUDNN_DATA_HALF) return run<__half>(stream, p, b);
    return run<__nv_bfloat16>(stream, p, b);
}

}  // namespace librednn::cuda
