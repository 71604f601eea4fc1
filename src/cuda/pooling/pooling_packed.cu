// The packed NHWC and NCHW pooling kernels (pooling_packed.hpp).
#include "cuda/pooling/pooling_packed.hpp"

#include "core/cuda_failure.hpp"
#include "core/data_type.hpp"
#include "core/fault_injection.hpp"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/pooling/pooling_pairs.hpp"

#include <type_traits>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kMaxArgmaxPositions = 255;  // a window position fits a byte; 255 marks "none"
constexpr uint8_t kNone = 255;

bool packed_nhwc(const TensorGeometry &g) {
    if (g.nb_dims != 4 || g.vector() != 1) return false;
    const int64_t c = g.dims[1], h = g.dims[2], w = g.dims[3];
    return (c == 1 || g.strides[1] == 1) && (w == 1 || g.strides[3] == c) && (h == 1 || g.strides[2] == c * w) &&
           (g.dims[0] == 1 || g.strides[0] == c * w * h);
}

bool packed_nchw(const TensorGeometry &g) {
    if (g.nb_dims != 4 || g.vector() != 1) return false;
    const int64_t c = g.dims[1], h = g.dims[2], w = g.dims[3];
    return (w == 1 || g.strides[3] == 1) && (h == 1 || g.strides[2] == w) && (c == 1 || g.strides[1] == h * w) &&
           (g.dims[0] == 1 || g.strides[0] == c * h * w);
}

bool all_packed(const PoolingProblem &p, bool (*packed)(const TensorGeometry &)) {
    if (!packed(p.x) || !packed(p.y)) return false;
    return p.direction == Direction::forward || (packed(p.dy) && packed(p.dx));
}

// kLanes consecutive elements one thread moves as one access: a 16-byte vector of channels (NHWC), or
// one element (NCHW, seen as NHWC with one channel and N x C images).
template <class T, int Lanes>
struct alignas(sizeof(T) * Lanes) LaneVector {
    T lane[Lanes];
};

struct NhwcArgs {
    int in_h, in_w, out_h, out_w;
    int window_h, window_w, pad_h, pad_w, stride_h, stride_w;
    int64_t vectors_per_position;  // C / lanes
    int64_t work;                  // vectors of the pass's result
    // The pass's result's index decode (out_* forward, in_* backward), without 64-bit divisions: a thread
    // moves a few bytes, and five 64-bit divisions cost more than its loads.
    FastDivisor vectors, width, height;
    FastDivisor stride_rows, stride_columns;  // backward: the strides, as divisors
    int max, include_padding, propagate;
    float alpha, beta;
    const void *x, *dy;
    void *result;
    uint8_t *argmax;  // backward max: per output element, the window position of its first maximum
};

// The in-image part of the window of output (oh, ow): rows [h0, h1), columns [w0, w1).
__device__ __forceinline__ void window_of(const NhwcArgs &a, int oh, int ow, int &h0, int &h1, int &w0, int &w1) {
    const int64_t sh = static_cast<int64_t>(oh) * a.stride_h - a.pad_h,
                  sw = static_cast<int64_t>(ow) * a.stride_w - a.pad_w;
    h0 = static_cast<int>(sh < 0 ? 0 : sh);
    w0 = static_cast<int>(sw < 0 ? 0 : sw);
    h1 = static_cast<int>(sh + a.window_h < a.in_h ? sh + a.window_h : a.in_h);
    w1 = static_cast<int>(sw + a.window_w < a.in_w ? sw + a.window_w : a.in_w);
}

// Vector v of the pass's result: channel vector cv at column px, row py of image n.
struct VectorAt {
    int64_t cv, n;
    int px, py;
};

template <int kLanes>
__device__ __forceinline__ VectorAt vector_at(const NhwcArgs &a, int64_t v) {
    VectorAt at;
    // NCHW (one lane): a position holds one vector.
    const int64_t position = kLanes == 1 ? v : divide(a.vectors, v);
    at.cv = v - position * (kLanes == 1 ? 1 : a.vectors.divisor);
    const int64_t rest = divide(a.width, position);
    at.px = static_cast<int>(position - rest * a.width.divisor);
    at.n = divide(a.height, rest);
    at.py = static_cast<int>(rest - at.n * a.height.divisor);
    return at;
}

// One lane's maximum, as the generic kernel takes it: the first of equal maxima stays; NaN is skipped,
// or (propagated) wins and then stays. Returns whether `v` became the maximum.
__device__ __forceinline__ bool take_max(float v, bool propagate, bool &found, float &best) {
    if (v != v && !propagate) return false;
    if (found && best != best) return false;
    if (!found || v != v || v > best) {
        best = v;
        found = true;
        return true;
    }
    return false;
}

// Whether a kernel knows its mode when compiled (the mode's test then costs nothing per value).
enum PoolMode { kAnyMode, kMaxMode, kAverageMode };

// Forward (and the backward max's first pass, which keeps only the argmax): one thread per output vector.
// kWindow > 0: the window is kWindow x kWindow, and the thread issues all its loads before it takes any
// (one thread moves little data: without loads in flight together, it waits on each in turn); 0: any.
template <class T, int kLanes, bool kArgmaxOnly, int kWindow, int kMode = kAnyMode>
__global__ void __launch_bounds__(kBlock) forward_kernel(const __grid_constant__ NhwcArgs a) {
    using V = LaneVector<T, kLanes>;
    const bool is_max = kMode == kAnyMode ? a.max != 0 : kMode == kMaxMode;
    const auto *x = static_cast<const V *>(a.x);
    auto *y = static_cast<V *>(a.result);
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const VectorAt at = vector_at<kLanes>(a, v);
        const int64_t cv = at.cv, n = at.n;
        const int ow = at.px, oh = at.py;
        int h0, h1, w0, w1;
        window_of(a, oh, ow, h0, h1, w0, w1);
        float acc[kLanes];
        bool found[kLanes];
        uint8_t where[kLanes];
#pragma unroll
        for (int l = 0; l < kLanes; ++l) acc[l] = 0.0f, found[l] = false, where[l] = kNone;
        // Offsets: one 64-bit product per output, then steps of a row and of a position (the window's taps).
        const int64_t position_step = kLanes == 1 ? 1 : a.vectors_per_position;
        const int64_t row_step = a.in_w * position_step;
        // Takes window position `index`'s vector, in row-major window order.
        auto take = [&](int index, const V &in) {
#pragma unroll
            for (int l = 0; l < kLanes; ++l) {
                const float value = to_compute<float>(in.lane[l]);
                if (is_max) {
                    if (take_max(value, a.propagate, found[l], acc[l])) where[l] = static_cast<uint8_t>(index);
                } else {
                    acc[l] += value;
                }
            }
        };
        const int sh = oh * a.stride_h - a.pad_h, sw = ow * a.stride_w - a.pad_w;
        // The window's corner (it may lie outside the image: only taps inside are read).
        const int64_t corner = ((n * a.in_h + sh) * a.in_w + sw) * position_step + cv;
        if constexpr (kWindow > 0) {
            bool row_in[kWindow], column_in[kWindow];
#pragma unroll
            for (int i = 0; i < kWindow; ++i) {
                row_in[i] = sh + i >= h0 && sh + i < h1;
                column_in[i] = sw + i >= w0 && sw + i < w1;
            }
            V in[kWindow][kWindow];
#pragma unroll
            for (int i = 0; i < kWindow; ++i) {
#pragma unroll
                for (int j = 0; j < kWindow; ++j) {
                    if (row_in[i] && column_in[j]) in[i][j] = x[corner + i * row_step + j * position_step];
                }
            }
#pragma unroll
            for (int i = 0; i < kWindow; ++i) {
#pragma unroll
                for (int j = 0; j < kWindow; ++j) {
                    if (row_in[i] && column_in[j]) take(i * kWindow + j, in[i][j]);
                }
            }
        } else {
            // (Half NHWC stem forward: 446 us at bd95109, 493-498 since, with this form or steps from the corner
            // alike; the cause is not found yet, bench/results/2026-12-02-h200-second-session/.)
            const int64_t image = n * a.in_h;
            for (int h = h0; h < h1; ++h) {
                for (int w = w0; w < w1; ++w) {
                    take((h - sh) * a.window_w + (w - sw), x[((image + h) * a.in_w + w) * position_step + cv]);
                }
            }
        }
        if (kArgmaxOnly) {
            uint8_t *out = a.argmax + v * kLanes;
#pragma unroll
            for (int l = 0; l < kLanes; ++l) out[l] = where[l];
            continue;
        }
        const int count = (h1 - h0) * (w1 - w0);
        const float divisor = a.include_padding ? static_cast<float>(a.window_h) * static_cast<float>(a.window_w)
                                                : static_cast<float>(count);
        V result;
        if (a.beta != 0.0f) result = y[v];
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            float value = is_max ? (found[l] ? acc[l] : 0.0f) : (count > 0 ? acc[l] / divisor : 0.0f);
            value *= a.alpha;
            if (a.beta != 0.0f) value += a.beta * to_compute<float>(result.lane[l]);
            result.lane[l] = from_compute<T>(value);
        }
        y[v] = result;
    }
}

// Backward: one thread per input vector gathers from the outputs whose windows cover it, in the generic
// kernel's order: the share of an average, or dy where the output's first maximum is this position.
// kCover > 0: at most kCover outputs per dim cover an input (window <= kCover * stride), and the thread
// loads all it needs before it sums; 0: any.
template <class T, int kLanes, int kCover, int kMode = kAnyMode>
__global__ void __launch_bounds__(kBlock) backward_kernel(const __grid_constant__ NhwcArgs a) {
    using V = LaneVector<T, kLanes>;
    const bool is_max = kMode == kAnyMode ? a.max != 0 : kMode == kMaxMode;
    using Where = LaneVector<uint8_t, kLanes>;
    const auto *dy = static_cast<const V *>(a.dy);
    auto *dx = static_cast<V *>(a.result);
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const VectorAt at = vector_at<kLanes>(a, v);
        const int64_t cv = at.cv, n = at.n;
        const int qw = at.px, qh = at.py;
        // Outputs o with o * stride - pad <= q <= o * stride - pad + window - 1 (in int: coordinates and window
        // offsets stay below 2^30 + 2^16, pooling_packed_applicable).
        const int top_h = qh + a.pad_h, top_w = qw + a.pad_w;
        const int first_h =
            top_h - a.window_h + 1 <= 0 ? 0 : static_cast<int>(divide(a.stride_rows, top_h - a.window_h + a.stride_h));
        const int first_w = top_w - a.window_w + 1 <= 0
                                ? 0
                                : static_cast<int>(divide(a.stride_columns, top_w - a.window_w + a.stride_w));
        const int last_h = min(static_cast<int>(divide(a.stride_rows, top_h)), a.out_h - 1);
        const int last_w = min(static_cast<int>(divide(a.stride_columns, top_w)), a.out_w - 1);
        float sum[kLanes];
#pragma unroll
        for (int l = 0; l < kLanes; ++l) sum[l] = 0.0f;
        const auto *argmax = reinterpret_cast<const Where *>(a.argmax);
        // dy's offsets: one 64-bit product per input, then steps of an output row and position.
        const int64_t position_step = kLanes == 1 ? 1 : a.vectors_per_position;
        const int64_t row_step = a.out_w * position_step;
        const int64_t first = ((n * a.out_h + first_h) * a.out_w + first_w) * position_step + cv;
        auto output = [&](int oh, int ow) {
            return first + (oh - first_h) * row_step + (ow - first_w) * position_step;
        };
        // Adds output (oh, ow)'s share, its dy vector g (and its argmax).
        auto add = [&](int oh, int ow, const V &g, const Where &where) {
            if (is_max) {
                const int index = (qh - (oh * a.stride_h - a.pad_h)) * a.window_w + (qw - (ow * a.stride_w - a.pad_w));
#pragma unroll
                for (int l = 0; l < kLanes; ++l) {
                    if (where.lane[l] == index) sum[l] += to_compute<float>(g.lane[l]);
                }
            } else {
                int h0, h1, w0, w1;
                window_of(a, oh, ow, h0, h1, w0, w1);
                const float divisor = a.include_padding
                                          ? static_cast<float>(a.window_h) * static_cast<float>(a.window_w)
                                          : static_cast<float>((h1 - h0) * (w1 - w0));
#pragma unroll
                for (int l = 0; l < kLanes; ++l) sum[l] += to_compute<float>(g.lane[l]) / divisor;
            }
        };
        if constexpr (kCover > 0) {
            V g[kCover][kCover];
            Where where[kCover][kCover];
#pragma unroll
            for (int i = 0; i < kCover; ++i) {
#pragma unroll
                for (int j = 0; j < kCover; ++j) {
                    if (first_h + i <= last_h && first_w + j <= last_w) {
                        const int64_t o = output(first_h + i, first_w + j);
                        g[i][j] = dy[o];
                        if (is_max) where[i][j] = argmax[o];
                    }
                }
            }
#pragma unroll
            for (int i = 0; i < kCover; ++i) {
#pragma unroll
                for (int j = 0; j < kCover; ++j) {
                    if (first_h + i <= last_h && first_w + j <= last_w)
                        add(first_h + i, first_w + j, g[i][j], where[i][j]);
                }
            }
        } else {
            for (int oh = first_h; oh <= last_h; ++oh) {
                for (int ow = first_w; ow <= last_w; ++ow) {
                    const int64_t o = output(oh, ow);
                    Where where{};
                    if (is_max) where = argmax[o];
                    add(oh, ow, dy[o], where);
                }
            }
        }
        V result;
        if (a.beta != 0.0f) result = dx[v];
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            float value = sum[l] * a.alpha;
            if (a.beta != 0.0f) value += a.beta * to_compute<float>(result.lane[l]);
            result.lane[l] = from_compute<T>(value);
        }
        dx[v] = result;
    }
}

// Backward max with 3 x 3 windows at stride 2 (ResNet's stem, most CNNs' max pooling) over NHWC: one thread
// per 2 x 2 group of inputs (rows 2 gh, 2 gh + 1, columns 2 gw, 2 gw + 1) and channel vector. Two output rows
// and two output columns reach a group, so the thread loads the four outputs' dy and argmax once for its four
// inputs (an input a thread loads them 2.25 times an input) and sums each input's share in the gather's order
// (output rows, then columns). kParity = the padding's parity (the same both ways): it fixes where each input
// lies in each output's window, so the window positions compared with the argmax are constants.
template <class T, int kLanes, int kParity>
__global__ void __launch_bounds__(kBlock) backward_groups_kernel(const __grid_constant__ NhwcArgs a) {
    static_assert(kLanes == 8, "the argmax of a vector is two 32-bit words");
    using V = LaneVector<T, kLanes>;
    const auto *dy = static_cast<const V *>(a.dy);
    const auto *argmax = reinterpret_cast<const uint2 *>(a.argmax);
    auto *dx = static_cast<V *>(a.result);
    for (int64_t v = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; v < a.work;
         v += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const VectorAt at = vector_at<kLanes>(a, v);  // px, py: the group's column and row
        const int qh0 = 2 * at.py, qw0 = 2 * at.px;
        // The first output whose window reaches the group (2 o - pad + 2 >= 2 g, exactly: the sum is even);
        // -1 at the top (left) edge without padding.
        const int first_h = (qh0 + a.pad_h - 2 + kParity) >> 1, first_w = (qw0 + a.pad_w - 2 + kParity) >> 1;
        const int64_t step = a.vectors_per_position;
        const int64_t first = ((at.n * a.out_h + first_h) * a.out_w + first_w) * step + at.cv;
        // The four outputs' dy and argmax (as words: a byte array would live a byte a register); outputs
        // outside the image hold no position (255).
        V g[2][2];
        uint2 where[2][2];
#pragma unroll
        for (int i = 0; i < 2; ++i) {
#pragma unroll
            for (int j = 0; j < 2; ++j) {
                const int oh = first_h + i, ow = first_w + j;
                where[i][j] = make_uint2(0xffffffffu, 0xffffffffu);
                if (oh >= 0 && oh < a.out_h && ow >= 0 && ow < a.out_w) {
                    const int64_t o = first + (i * a.out_w + j) * step;
                    g[i][j] = dy[o];
                    where[i][j] = argmax[o];
                }
            }
        }
        // The inputs' sums, input (di, dj) in sum[2 di + dj], the outputs added in the gather's order.
        float sum[4][kLanes];
#pragma unroll
        for (int q = 0; q < 4; ++q) {
#pragma unroll
            for (int l = 0; l < kLanes; ++l) sum[q][l] = 0.0f;
        }
        // The input's row in output first_h + i's window: 2 (first_h + i) - pad + row = qh0 + di.
        constexpr int kBase = 2 - kParity;
#pragma unroll
        for (int i = 0; i < 2; ++i) {
#pragma unroll
            for (int j = 0; j < 2; ++j) {
#pragma unroll
                for (int l = 0; l < kLanes; ++l) {
                    const uint32_t word = l < 4 ? where[i][j].x : where[i][j].y;
                    const int position = static_cast<int>((word >> (8 * (l % 4))) & 0xffu);
                    const float gradient = to_compute<float>(g[i][j].lane[l]);
#pragma unroll
                    for (int di = 0; di < 2; ++di) {
#pragma unroll
                        for (int dj = 0; dj < 2; ++dj) {
                            const int row = di + kBase - 2 * i, column = dj + kBase - 2 * j;
                            if (row < 0 || row > 2 || column < 0 || column > 2) continue;  // constants
                            if (position == row * 3 + column) sum[2 * di + dj][l] += gradient;
                        }
                    }
                }
            }
        }
        const int64_t input = ((at.n * a.in_h + qh0) * a.in_w + qw0) * step + at.cv;
#pragma unroll
        for (int di = 0; di < 2; ++di) {
#pragma unroll
            for (int dj = 0; dj < 2; ++dj) {
                if (qh0 + di >= a.in_h || qw0 + dj >= a.in_w) continue;
                const int64_t q = input + (di * a.in_w + dj) * step;
                V result;
                if (a.beta != 0.0f) result = dx[q];
#pragma unroll
                for (int l = 0; l < kLanes; ++l) {
                    float value = sum[2 * di + dj][l] * a.alpha;
                    if (a.beta != 0.0f) value += a.beta * to_compute<float>(result.lane[l]);
                    result.lane[l] = from_compute<T>(value);
                }
                dx[q] = result;
            }
        }
    }
}

// kLanes channels a vector over NHWC; 1 over NCHW, whose N x C planes are the images of a one-channel NHWC.
template <class T, int kLanes>
Status run(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    const bool forward = p.direction == Direction::forward;
    NhwcArgs a{};
    a.in_h = static_cast<int>(p.x.dims[2]);
    a.in_w = static_cast<int>(p.x.dims[3]);
    a.out_h = static_cast<int>(p.y.dims[2]);
    a.out_w = static_cast<int>(p.y.dims[3]);
    a.window_h = static_cast<int>(p.window[0]);
    a.window_w = static_cast<int>(p.window[1]);
    a.pad_h = static_cast<int>(p.pad[0]);
    a.pad_w = static_cast<int>(p.pad[1]);
    a.stride_h = static_cast<int>(p.stride[0]);
    a.stride_w = static_cast<int>(p.stride[1]);
    a.vectors_per_position = kLanes == 1 ? 1 : p.x.dims[1] / kLanes;  // NCHW: one channel, N x C images
    a.max = p.is_max();
    a.include_padding = p.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
    a.propagate = p.nan_opt == CUDNN_PROPAGATE_NAN;
    a.alpha = static_cast<float>(p.alpha);
    a.beta = static_cast<float>(p.beta);
    a.x = b.x;
    a.dy = b.dy;
    a.result = b.result;
    const int64_t out_vectors = p.y.element_count() / kLanes, in_vectors = p.x.element_count() / kLanes;
    a.vectors = make_fast_divisor(a.vectors_per_position);
    a.width = make_fast_divisor(a.out_w);
    a.height = make_fast_divisor(a.out_h);
    // Over NCHW (one value a thread), 3 x 3 windows (ResNet's stem, most CNNs' max pooling) load all nine
    // values at once, and forward 7 x 7 windows (ResNet's head, global average pooling of 7 x 7 planes) all 49.
    // (Nine 16-byte NHWC vectors held at once ran slower than the loop.)
    const bool window3 = a.window_h == 3 && a.window_w == 3, window7 = a.window_h == 7 && a.window_w == 7;
    auto forward_pass = [&](auto argmax_only) {
        constexpr bool kArgmaxOnly = decltype(argmax_only)::value;
        const int grid = grid_size(a.work, kBlock, kBlock, 4);
        if constexpr (kLanes == 1) {
            if (window3) {
                if (kArgmaxOnly || a.max) {
                    forward_kernel<T, kLanes, kArgmaxOnly, 3, kMaxMode><<<grid, kBlock, 0, stream>>>(a);
                } else if constexpr (!kArgmaxOnly) {
                    forward_kernel<T, kLanes, kArgmaxOnly, 3, kAverageMode><<<grid, kBlock, 0, stream>>>(a);
                }
                return;
            }
            if constexpr (!kArgmaxOnly) {
                if (window7) {
                    forward_kernel<T, kLanes, kArgmaxOnly, 7><<<grid, kBlock, 0, stream>>>(a);
                    return;
                }
            }
        }
        forward_kernel<T, kLanes, kArgmaxOnly, 0><<<grid, kBlock, 0, stream>>>(a);
    };
    if (forward) {
        a.work = out_vectors;
        if (a.work == 0) return CUDNN_STATUS_SUCCESS;
        forward_pass(std::false_type{});
        return check_launch("pooling_packed_forward_kernel");
    }
    void *scratch = nullptr;
    if (a.max && out_vectors > 0) {
        const size_t bytes = static_cast<size_t>(p.y.element_count());
        const cudaError_t err = LIBREDNN_CUDA_SITE(device_allocation, cudaMallocAsync(&scratch, bytes, stream));
        if (err != cudaSuccess) return cuda_failure(err, "allocating the %zu bytes of pooling argmax", bytes);
        a.argmax = static_cast<uint8_t *>(scratch);
        a.work = out_vectors;
    }
    Status status = CUDNN_STATUS_SUCCESS;
    if (scratch != nullptr) {
        // 16-bit NHWC with 2x2 or 3x3 windows: from paired maxima (pooling_pairs.hpp).
        if (kLanes == 8 && pooling_pairs_argmax_applicable(p, b)) {
            status = pooling_pairs_argmax(stream, p, b.x, a.argmax);
        } else {
            forward_pass(std::true_type{});
            status = check_launch("pooling_packed_argmax_kernel");
        }
    }
    a.work = in_vectors;
    a.width = make_fast_divisor(a.in_w);
    a.height = make_fast_divisor(a.in_h);
    a.stride_rows = make_fast_divisor(a.stride_h);
    a.stride_columns = make_fast_divisor(a.stride_w);
    // 16-bit NHWC max, 3 x 3 windows at stride 2, paddings of one parity: a thread a 2 x 2 group of inputs.
    static const bool groups_off = switched_off("LIBREDNN_POOLING_GROUPS");
    const bool groups = kLanes == 8 && a.max && !groups_off && a.stride_h == 2 && a.stride_w == 2 && a.window_h == 3 &&
                        a.window_w == 3 && a.pad_h % 2 == a.pad_w % 2;
    if (groups && status == CUDNN_STATUS_SUCCESS && a.work > 0) {
        if constexpr (kLanes == 8) {
            const int groups_h = (a.in_h + 1) / 2, groups_w = (a.in_w + 1) / 2;
            a.work = p.x.dims[0] * groups_h * groups_w * a.vectors_per_position;
            a.width = make_fast_divisor(groups_w);
            a.height = make_fast_divisor(groups_h);
            const int grid = grid_size(a.work, kBlock, kBlock, 4);
            if (a.pad_h % 2 == 1) {
                backward_groups_kernel<T, kLanes, 1><<<grid, kBlock, 0, stream>>>(a);
            } else {
                backward_groups_kernel<T, kLanes, 0><<<grid, kBlock, 0, stream>>>(a);
            }
            status = check_launch("pooling_backward_groups_kernel");
        }
    } else if (status == CUDNN_STATUS_SUCCESS && a.work > 0) {
        // At most two outputs per dim cover an input where window <= 2 * stride (3 x 3 windows at stride 2).
        const bool cover2 = a.window_h <= 2 * a.stride_h && a.window_w <= 2 * a.stride_w;
        const int grid = grid_size(a.work, kBlock, kBlock, 4);
        if (cover2 && a.max) {
            backward_kernel<T, kLanes, 2, kMaxMode><<<grid, kBlock, 0, stream>>>(a);
        } else if (cover2) {
            backward_kernel<T, kLanes, 2, kAverageMode><<<grid, kBlock, 0, stream>>>(a);
        } else {
            backward_kernel<T, kLanes, 0><<<grid, kBlock, 0, stream>>>(a);
        }
        status = check_launch("pooling_packed_backward_kernel");
    }
    if (scratch != nullptr) cudaFreeAsync(scratch, stream);
    return status;
}

}  // namespace

bool aligned_or_null(const void *pointer, size_t bytes) {
    return pointer == nullptr || reinterpret_cast<uintptr_t>(pointer) % bytes == 0;
}

bool pooling_packed_nhwc(const PoolingProblem &p) { return all_packed(p, packed_nhwc); }

bool pooling_packed_nchw(const PoolingProblem &p) { return all_packed(p, packed_nchw); }

bool pooling_packed_applicable(const PoolingProblem &p, const PoolingBuffers &b) {
    if (p.spatial_dims != 2) return false;
    if (p.x.dtype != CUDNN_DATA_FLOAT && p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    const bool forward = p.direction == Direction::forward;
    if (pooling_packed_nchw(p)) {
        // One element a thread: any alignment, any channel count.
    } else {
        if (!pooling_packed_nhwc(p)) return false;
        const int64_t lanes = 16 / static_cast<int64_t>(data_type_size(p.x.dtype));
        if (p.x.dims[1] % lanes != 0) return false;
        if (!aligned_or_null(b.x, 16) || !aligned_or_null(b.dy, 16) || !aligned_or_null(b.result, 16)) return false;
    }
    // Gathering from dy while writing dx (or reading x while writing y) in the same memory would race.
    if (b.result == b.x || b.result == b.dy) return false;
    // Every coordinate and window offset in int; the argmax in a byte.
    for (int d = 0; d < 2; ++d) {
        if (p.window[d] > 65535 || p.pad[d] > 65535 || p.stride[d] > 65535) return false;
        if (p.x.dims[2 + d] > (int64_t{1} << 30) || p.y.dims[2 + d] > (int64_t{1} << 30)) return false;
    }
    if (!forward && p.is_max() && p.window[0] * p.window[1] > kMaxArgmaxPositions - 1) return false;
    return true;
}

Status pooling_packed(cudaStream_t stream, const PoolingProblem &p, const PoolingBuffers &b) {
    // NCHW first: a tensor with one channel, or 1x1 planes, is packed both ways; one element a thread
    // takes it whatever its alignment.
    const bool nchw = pooling_packed_nchw(p);
    switch (p.x.dtype) {
        case CUDNN_DATA_HALF: return nchw ? run<__half, 1>(stream, p, b) : run<__half, 8>(stream, p, b);
        case CUDNN_DATA_BFLOAT16:
            return nchw ? run<__nv_bfloat16, 1>(stream, p, b) : run<__nv_bfloat16, 8>(stream, p, b);
        default: return nchw ? run<float, 1>(stream, p, b) : run<float, 4>(stream, p, b);
    }
}

}  // namespace librednn::cuda
