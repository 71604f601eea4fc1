// The 3x3 stride-2 pooling strips (pooling_strips.hpp).
#include "cuda/pooling/pooling_strips.hpp"

#include "core/data_type.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/pooling/pooling_device.cuh"
#include "cuda/pooling/pooling_packed.hpp"

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
// Output rows a thread takes. On the H200, stem 256x64x112x112 float: forward 352 us at 8 and 361 at 4 (one
// machine, calls 4 and 5), backward 925 at 8 and 972 at 4 (the rows read twice weigh less).
constexpr int kStrip = 8;
constexpr int kCols = 4;  // output columns a thread takes

struct StripArgs {
    int in_h, in_w, out_h, out_w;
    int64_t work;                // shares: planes x strips x column groups
    FastDivisor groups, strips;  // column groups a strip, strips an image
    int propagate, include_padding;
    float alpha, beta;
    const void *x, *dy;
    void *result;
};

// A thread's share: its plane (image and channel), the first output row of its strip and its first output
// column.
struct Share {
    int64_t image;
    int row, column;
};

__device__ __forceinline__ Share share_of(const StripArgs &a, int64_t v) {
    Share s;
    const int64_t rest = divide(a.groups, v);
    s.column = static_cast<int>(v - rest * a.groups.divisor) * kCols;
    s.image = divide(a.strips, rest);
    s.row = static_cast<int>(rest - s.image * a.strips.divisor) * kStrip;
    return s;
}

// A thread's first output column c is a multiple of kCols and the width a multiple of 8, so the input columns
// 2c - 1 .. 2c + 7 of a row (and 2c + 8, 2c + 9 backward) are the column before, an 8-element vector (and a
// 2-element one), and its 4 outputs (8 owned inputs) one vector. Loads row r's part as floats.
template <class T, int kSeg>
__device__ __forceinline__ void load_row(const StripArgs &a, const Share &s, int r, float (&v)[kSeg]) {
    const T *x = static_cast<const T *>(a.x);
    const int64_t row = (s.image * a.in_h + r) * a.in_w;
    const int c = 2 * s.column;
    if (c > 0) v[0] = to_compute<float>(x[row + c - 1]);
    const Lanes<T, 8> body = *reinterpret_cast<const Lanes<T, 8> *>(x + row + c);
#pragma unroll
    for (int i = 0; i < 8; ++i) v[1 + i] = to_compute<float>(body.lane[i]);
    if constexpr (kSeg > 9) {
        if (c + 8 < a.in_w) {
            const Lanes<T, 2> tail = *reinterpret_cast<const Lanes<T, 2> *>(x + row + c + 8);
            v[9] = to_compute<float>(tail.lane[0]);
            v[10] = to_compute<float>(tail.lane[1]);
        }
    }
}

// dy of output row oh, columns c .. c + 4 (the last where it lies in the image).
template <class T>
__device__ __forceinline__ void load_dy(const StripArgs &a, const Share &s, int oh, float (&g)[kCols + 1]) {
    const T *dy = static_cast<const T *>(a.dy);
    const int64_t at = (s.image * a.out_h + oh) * a.out_w + s.column;
    const Lanes<T, 4> body = *reinterpret_cast<const Lanes<T, 4> *>(dy + at);
#pragma unroll
    for (int i = 0; i < 4; ++i) g[i] = to_compute<float>(body.lane[i]);
    if (s.column + 4 < a.out_w) g[4] = to_compute<float>(dy[at + 4]);
}

// Stores kCount results at columns first .. first + kCount - 1 of row `row` of a tensor `width` wide, blended
// with alpha and beta.
template <class T, int kCount>
__device__ __forceinline__ void store(const StripArgs &a, int64_t row, int width, int first,
                                      const float (&value)[kCount]) {
    auto *at = reinterpret_cast<Lanes<T, kCount> *>(static_cast<T *>(a.result) + row * width + first);
    Lanes<T, kCount> result;
    if (a.beta != 0.0f) result = *at;
#pragma unroll
    for (int i = 0; i < kCount; ++i) {
        float v = value[i] * a.alpha;
        if (a.beta != 0.0f) v += a.beta * to_compute<float>(result.lane[i]);
        result.lane[i] = from_compute<T>(v);
    }
    *at = result;
}

// A window's maximum as the packed kernels take it (take_max there): the first of equal maxima stays; NaN is
// skipped, or (propagated) wins and then stays. `where`: its window position, -1 before any value.
struct Maximum {
    float best;
    int where;
};

// As predicates and selects, the NaN mode known at compile time: without a value yet (where < 0) any value is
// taken; after that, skipped NaN: a value above the best; propagated NaN: NaN or a value above the best, until the
// best is NaN.
template <bool kPropagate>
__device__ __forceinline__ void take_as(Maximum &m, float v, int index) {
    const bool none = (m.where < 0), v_nan = (v != v), above = (v > m.best);
    const bool taken = kPropagate ? none | (!(m.best != m.best) & (v_nan | above)) : !v_nan & (none | above);
    m.best = taken ? v : m.best;
    m.where = taken ? index : m.where;
}

// Whether input column 2c - 1 + k of the thread's row part lies in the image. Columns 1 .. 8 always do (c is a
// multiple of kCols below the output width, the input width a multiple of 8): only the column before (k = 0, at
// c = 0) and the backward's two after (k = 9, 10, at the last group) may not.
__device__ __forceinline__ bool column_in(const StripArgs &a, const Share &s, int k) {
    if (k >= 1 && k <= 8) return true;
    const int column = 2 * s.column - 1 + k;
    return column >= 0 && column < a.in_w;
}

// Forward: the strip's input rows j = 0 .. 2 kStrip (row 2 s.row - 1 + j) one after another, each folded into the
// output row it is the middle of (j odd), or ends and starts (j even: the one before ends with it, the next starts);
// an output row is stored once its last row is folded. Rows are loaded two ahead of the one being folded (a ring of
// three), so that a thread keeps up to three rows' loads in flight instead of one. The only column a row part may
// lack is the one before the image (first column 0): load_row leaves it as the ring starts it, holding what adds
// nothing to a window (0, or the maximum's "none yet"), so the taps need no test.
template <class T, bool kAverage, bool kPropagate>
__global__ void __launch_bounds__(kBlock) strips_forward_kernel(const __grid_constant__ StripArgs a) {
    constexpr int kSeg = 2 * kCols + 1, kRows = 2 * kStrip + 1, kAhead = 2;
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const Share s = share_of(a, v);
        float acc[2][kCols];  // sums or maxima (pooling_device.cuh)
        const float none = kAverage ? 0.0f : max_none(kPropagate);
        float ring[kAhead + 1][kSeg];
#pragma unroll
        for (int r = 0; r <= kAhead; ++r) {
#pragma unroll
            for (int k = 0; k < kSeg; ++k) ring[r][k] = none;
        }
        auto reset = [&](int slot) {
#pragma unroll
            for (int j = 0; j < kCols; ++j) {
                acc[slot][j] = none;
            }
        };
        // Folds input row `in` into output row `slot`, each window's taps in row-major order.
        auto fold = [&](int slot, const float(&in)[kSeg]) {
#pragma unroll
            for (int j = 0; j < kCols; ++j) {
#pragma unroll
                for (int t = 0; t < 3; ++t) {
                    if (kAverage) {
                        acc[slot][j] += in[2 * j + t];
                    } else {
                        fold_max_as<kPropagate>(acc[slot][j], in[2 * j + t]);
                    }
                }
            }
        };
        const int rows = min(kStrip, a.out_h - s.row);
        // Input row j of the strip: in the image, and no further than the last output row's last row (j = 2 rows).
        auto row_of = [&](int j) { return 2 * s.row - 1 + j; };
        auto present = [&](int j) { return j <= 2 * rows && row_of(j) >= 0 && row_of(j) < a.in_h; };
#pragma unroll
        for (int j = 0; j < kAhead; ++j) {
            if (present(j)) load_row<T>(a, s, row_of(j), ring[j]);
        }
        reset(0);
#pragma unroll
        for (int j = 0; j < kRows; ++j) {
            if (j > 2 * rows) break;
            if (j + kAhead < kRows && present(j + kAhead))
                load_row<T>(a, s, row_of(j + kAhead), ring[(j + kAhead) % 3]);
            const float(&in)[kSeg] = ring[j % 3];
            const bool here = present(j);
            if (j == 0) {
                if (here) fold(0, in);  // the first output row's top row
                continue;
            }
            const int k = (j - 1) / 2, slot = k & 1;  // the output row j is the middle (odd j) or the end of
            if (j % 2 == 1) {
                if (here) fold(slot, in);
                if (k + 1 < rows) reset(slot ^ 1);
                continue;
            }
            if (here) {
                fold(slot, in);
                if (k + 1 < rows) fold(slot ^ 1, in);
            }
            float out[kCols];
            const int oh = s.row + k;
            const int window_rows = min(2 * oh + 2, a.in_h) - max(2 * oh - 1, 0);
#pragma unroll
            for (int c4 = 0; c4 < kCols; ++c4) {
                const int c = s.column + c4;
                const int count = window_rows * (min(2 * c + 2, a.in_w) - max(2 * c - 1, 0));
                const float divisor = a.include_padding ? 9.0f : static_cast<float>(count);
                const float value = acc[slot][c4];
                out[c4] = kAverage ? (count > 0 ? value / divisor : 0.0f) : max_result(value, kPropagate);
            }
            store<T, kCols>(a, s.image * a.out_h + oh, a.out_w, s.column, out);
        }
    }
}

// Backward, the max modes: the first maximum of output rows k = 0 .. rows (the row after the strip's too) and of
// kCols + 1 columns; once row k is known, input rows 2 oh and 2 oh + 1 of row k - 1 are written. The input rows are
// walked one at a time, j = 0 .. 2 rows + 2 (row 2 s.row - 1 + j: the top of output row j / 2 where j is even, and
// the bottom of the row before; the middle of row (j - 1) / 2 where j is odd), loaded two ahead in a ring of three as
// in the forward; dy of output row k is loaded at row 2 k (the bottom of row k - 1), two rows before it is needed.
// Two blocks an SM (128 registers), as before the ring.
template <class T, bool kPropagate>
__global__ void __launch_bounds__(kBlock, 2) strips_backward_kernel(const __grid_constant__ StripArgs a) {
    constexpr int kSeg = 2 * kCols + 3, kOut = kCols + 1, kRows = 2 * kStrip + 3, kAhead = 2;
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const Share s = share_of(a, v);
        bool in_image[kSeg];
#pragma unroll
        for (int k = 0; k < kSeg; ++k) in_image[k] = column_in(a, s, k);
        float ring[kAhead + 1][kSeg] = {};
        Maximum maxima[2][kOut];
        float g[2][kOut] = {};
        auto reset = [&](int slot) {
#pragma unroll
            for (int j = 0; j < kOut; ++j) maxima[slot][j] = Maximum{0.0f, -1};
        };
        // Window row i of output row `slot`, from input row `in`.
        auto fold = [&](int slot, int i, const float(&in)[kSeg]) {
#pragma unroll
            for (int j = 0; j < kOut; ++j) {
#pragma unroll
                for (int t = 0; t < 3; ++t) {
                    if (in_image[2 * j + t]) take_as<kPropagate>(maxima[slot][j], in[2 * j + t], i * 3 + t);
                }
            }
        };
        // Input rows 2 * oh and 2 * oh + 1 of output row oh (slot `up`; the next output row in slot `down`):
        // each input's sum over the windows holding it whose first maximum it is, in output row, then
        // column order (the gather's).
        auto write = [&](int oh, int up, int down) {
            float top[2 * kCols], bottom[2 * kCols];
#pragma unroll
            for (int j = 0; j < kCols; ++j) {
                const int a0 = maxima[up][j].where, a1 = maxima[up][j + 1].where;
                const int b0 = maxima[down][j].where, b1 = maxima[down][j + 1].where;
                const float g0 = g[up][j], g1 = g[up][j + 1], h0 = g[down][j], h1 = g[down][j + 1];
                float t = 0.0f;
                if (a0 == 4) t += g0;
                top[2 * j] = t;
                t = 0.0f;
                if (a0 == 5) t += g0;
                if (a1 == 3) t += g1;
                top[2 * j + 1] = t;
                t = 0.0f;
                if (a0 == 7) t += g0;
                if (b0 == 1) t += h0;
                bottom[2 * j] = t;
                t = 0.0f;
                if (a0 == 8) t += g0;
                if (a1 == 6) t += g1;
                if (b0 == 2) t += h0;
                if (b1 == 0) t += h1;
                bottom[2 * j + 1] = t;
            }
            store<T, 2 * kCols>(a, s.image * a.in_h + 2 * oh, a.in_w, 2 * s.column, top);
            if (2 * oh + 1 < a.in_h)
                store<T, 2 * kCols>(a, s.image * a.in_h + 2 * oh + 1, a.in_w, 2 * s.column, bottom);
        };
        const int rows = min(kStrip, a.out_h - s.row);
        auto row_of = [&](int j) { return 2 * s.row - 1 + j; };
        auto present = [&](int j) { return j <= 2 * rows + 2 && row_of(j) >= 0 && row_of(j) < a.in_h; };
        // dy of output row k (in the image) into its slot, whose last reader, the write of row k - 2, is done.
        auto fetch_dy = [&](int k) {
            if (k <= rows && s.row + k < a.out_h) load_dy<T>(a, s, s.row + k, g[k & 1]);
        };
#pragma unroll
        for (int j = 0; j < kAhead; ++j) {
            if (present(j)) load_row<T>(a, s, row_of(j), ring[j]);
        }
        fetch_dy(0);
        reset(0);
#pragma unroll
        for (int j = 0; j < kRows; ++j) {
            if (j > 2 * rows + 2) break;
            if (j + kAhead < kRows && present(j + kAhead))
                load_row<T>(a, s, row_of(j + kAhead), ring[(j + kAhead) % 3]);
            const float(&in)[kSeg] = ring[j % 3];
            const bool here = present(j);
            if (j == 0) {
                if (here) fold(0, 0, in);
                continue;
            }
            const int k = (j - 1) / 2, slot = k & 1, oh = s.row + k;
            if (j % 2 == 1) {
                if (here) fold(slot, 1, in);
                continue;
            }
            // The bottom of output row k: its maxima are then known.
            if (here) fold(slot, 2, in);
#pragma unroll
            for (int c4 = 0; c4 < kOut; ++c4) {
                if (oh >= a.out_h || s.column + c4 >= a.out_w) maxima[slot][c4].where = -1;
            }
            if (k > 0) write(oh - 1, slot ^ 1, slot);
            fetch_dy(k + 1);  // into the slot write() just read as `up` (row k - 1's)
            // Start row k + 1 with this input row, its top (after row k - 1 is written).
            if (k < rows) {
                reset(slot ^ 1);
                if (here) fold(slot ^ 1, 0, in);
            }
        }
    }
}

StripArgs args_of(const PoolingProblem &p, const PoolingBuffers &b) {
    StripArgs a{};
    a.in_h = static_cast<int>(p.x.dims[2]);
    a.in_w = static_cast<int>(p.x.dims[3]);
    a.out_h = static_cast<int>(p.y.dims[2]);
    a.out_w = static_cast<int>(p.y.dims[3]);
    const int64_t groups = (a.out_w + kCols - 1) / kCols, strips = (a.out_h + kStrip - 1) / kStrip;
    a.work = p.x.dims[0] * p.x.dims[1] * strips * groups;
    a.groups = make_fast_divisor(groups);
    a.strips = make_fast_divisor(strips);
    a.propagate = p.nan_opt == CUDNN_PROPAGATE_NAN;
    a.include_padding = p.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    a.x = b.x;
    a.dy = b.dy;
    a.result = b.result;
    return a;
}

template <class T>
Status launch(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    if (p.direction == Direction::forward) {
        const StripArgs a = args_of(p, b);
        if (a.work == 0) return CUDNN_STATUS_SUCCESS;
        const int grid = grid_size(a.work, kBlock, kBlock, 4);
        if (p.is_max() && a.propagate) {
            strips_forward_kernel<T, false, true><<<grid, kBlock, 0, stream>>>(a);
        } else if (p.is_max()) {
            strips_forward_kernel<T, false, false><<<grid, kBlock, 0, stream>>>(a);
        } else {
            strips_forward_kernel<T, true, false><<<grid, kBlock, 0, stream>>>(a);
        }
        return check_launch("strips_forward_kernel");
    }
    const StripArgs a = args_of(p, b);
    if (a.work == 0) return CUDNN_STATUS_SUCCESS;
    const int grid = grid_size(a.work, kBlock, kBlock, 4);
    if (a.propagate) {
        strips_backward_kernel<T, true><<<grid, kBlock, 0, stream>>>(a);
    } else {
        strips_backward_kernel<T, false><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch("strips_backward_kernel");
}

}  // namespace

bool pooling_strips_applicable(const PoolingProblem &p, const PoolingBuffers &b) {
    // LIBREDNN_POOLING_STRIPS=0 leaves these problems to the packed kernels (to compare the two).
    static const bool off = switched_off("LIBREDNN_POOLING_STRIPS");
    if (p.spatial_dims != 2 || off) return false;
    if (p.x.dtype != CUDNN_DATA_FLOAT && p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    const bool forward = p.direction == Direction::forward;
    if (!forward && !p.is_max()) return false;
    for (int d = 0; d < 2; ++d) {
        if (p.window[d] != 3 || p.stride[d] != 2 || p.pad[d] != 1) return false;
        const int64_t in = p.x.dims[2 + d], out = p.y.dims[2 + d];
        if (in < 1 || in > (int64_t{1} << 30) || out != (in - 1) / 2 + 1) return false;
    }
    if (b.result == b.x || b.result == b.dy) return false;
    // Packed NCHW, the column vectors: 8 inputs, 4 outputs. (Over half NHWC the strips, with 8-byte vectors of
    // channels, took 1.1-1.2x the packed kernels' time: bench/results/2026-12-02-h200-pooling-strips/.)
    if (!pooling_packed_nchw(p) || p.x.dims[3] % 8 != 0) return false;
    const size_t size = data_type_size(p.x.dtype);
    const void *input = b.x, *output = forward ? b.result : b.dy, *gradient = forward ? nullptr : b.result;
    return aligned_or_null(input, 8 * size) && aligned_or_null(gradient, 8 * size) && aligned_or_null(output, 4 * size);
}

Status pooling_strips(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    switch (p.x.dtype) {
        case CUDNN_DATA_HALF: return launch<__half>(stream, p, b);
        case CUDNN_DATA_BFLOAT16: return launch<__nv_bfloat16>(stream, p, b);
        default: return launch<float>(stream, p, b);
    }
}

}  // namespace librednn::cuda
