// The LRN kernels (lrn.hpp).
#include "cuda/lrn/lrn.hpp"

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/strided_layout.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 128;
// A ring of the last kRing channels' values per thread, in shared memory ([slot][thread]: a warp's
// lanes hit distinct banks). A window spans at most CUDNN_LRN_MAX_N = 16 channels, so 16 slots hold every
// value a step still needs (the slot a step writes held a channel that left every window it feeds).
constexpr int kRing = 16;
static_assert(CUDNN_LRN_MAX_N <= kRing, "an LRN window must fit the ring");

struct LrnArgs {
    DeviceLayout pillars;  // over N and the spatial dims; operands: the result, x, dy
    int64_t pillar_count;
    int channels, behind, ahead;
    int64_t out_c, x_c, dy_c;  // strides along C
    ScalarType type;
    double scale, lrn_beta, lrn_k, alpha, beta;  // scale = lrn_alpha / n
    const void *x, *dy;
    void *out;
};

__device__ __forceinline__ float power(float base, float exponent) { return powf(base, exponent); }
__device__ __forceinline__ double power(double base, double exponent) { return pow(base, exponent); }

// The sum of ring[w] over the window's channels first ... last (each taken afresh, at most 16 terms).
template <class C>
__device__ __forceinline__ C window_sum(const C (*ring)[kBlock], int first, int last) {
    C sum = C(0);
    for (int w = first; w <= last; ++w) sum += ring[w & (kRing - 1)][threadIdx.x];
    return sum;
}

template <class C>
__device__ __forceinline__ void store_result(const LrnArgs &a, int64_t at, C value) {
    value *= static_cast<C>(a.alpha);
    if (a.beta != 0.0) value += static_cast<C>(a.beta) * load_as<C>(a.out, a.type, at);
    store_as<C>(a.out, a.type, at, value);
}

// Forward: a thread per pillar walks its channels once; x_{j + ahead}^2 enters the ring as channel j's
// output is formed, so each input is read from memory once (x_j again from the cache).
template <class C>
__global__ void __launch_bounds__(kBlock) lrn_forward_kernel(const __grid_constant__ LrnArgs a) {
    __shared__ C squares[kRing][kBlock];
    const C scale = static_cast<C>(a.scale), lrn_k = static_cast<C>(a.lrn_k), lrn_beta = static_cast<C>(a.lrn_beta);
    for (int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < a.pillar_count;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t o[3];
        offsets_of<3>(a.pillars, p, o);
        for (int i = 0; i < a.ahead && i < a.channels; ++i) {
            const C v = load_as<C>(a.x, a.type, o[1] + i * a.x_c);
            squares[i & (kRing - 1)][threadIdx.x] = v * v;
        }
        for (int j = 0; j < a.channels; ++j) {
            const int i = j + a.ahead;
            if (i < a.channels) {
                const C v = load_as<C>(a.x, a.type, o[1] + i * a.x_c);
                squares[i & (kRing - 1)][threadIdx.x] = v * v;
            }
            const C s = lrn_k + scale * window_sum<C>(squares, max(j - a.behind, 0), min(j + a.ahead, a.channels - 1));
            store_result<C>(a, o[0] + j * a.out_c, load_as<C>(a.x, a.type, o[1] + j * a.x_c) * power(s, -lrn_beta));
        }
    }
}

// Backward: dx_j = dy_j s_j^-beta - 2 (alpha / n) beta x_j sum over the channels c whose window holds j
// (j - ahead ... j + behind) of dy_c x_c s_c^(-beta - 1). Step i takes x_i^2 into the ring, forms s_c for
// c = i - ahead (its window now complete) with one power, keeps t_c = dy_c x_c s_c^(-beta-1) and
// s_c^-beta, and writes dx_j for j = c - behind (every t it needs now formed).
template <class C>
__global__ void __launch_bounds__(kBlock) lrn_backward_kernel(const __grid_constant__ LrnArgs a) {
    __shared__ C squares[kRing][kBlock];
    __shared__ C terms[kRing][kBlock];
    __shared__ C powers[kRing][kBlock];
    const C scale = static_cast<C>(a.scale), lrn_k = static_cast<C>(a.lrn_k), lrn_beta = static_cast<C>(a.lrn_beta);
    const C factor = C(2) * scale * lrn_beta;
    const int lag = a.behind + a.ahead;
    for (int64_t p = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; p < a.pillar_count;
         p += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        int64_t o[3];
        offsets_of<3>(a.pillars, p, o);
        for (int i = 0; i < a.channels + lag; ++i) {
            if (i < a.channels) {
                const C v = load_as<C>(a.x, a.type, o[1] + i * a.x_c);
                squares[i & (kRing - 1)][threadIdx.x] = v * v;
            }
            const int c = i - a.ahead;
            if (c >= 0 && c < a.channels) {
                const C s =
                    lrn_k + scale * window_sum<C>(squares, max(c - a.behind, 0), min(c + a.ahead, a.channels - 1));
                const C q = power(s, -lrn_beta - C(1));
                terms[c & (kRing - 1)][threadIdx.x] =
                    load_as<C>(a.dy, a.type, o[2] + c * a.dy_c) * load_as<C>(a.x, a.type, o[1] + c * a.x_c) * q;
                powers[c & (kRing - 1)][threadIdx.x] = q * s;
            }
            const int j = i - lag;
            if (j >= 0) {
                const C sum = window_sum<C>(terms, max(j - a.ahead, 0), min(j + a.behind, a.channels - 1));
                const C value = load_as<C>(a.dy, a.type, o[2] + j * a.dy_c) * powers[j & (kRing - 1)][threadIdx.x] -
                                factor * load_as<C>(a.x, a.type, o[1] + j * a.x_c) * sum;
                store_result<C>(a, o[0] + j * a.out_c, value);
            }
        }
    }
}

// --- the tile kernel: a block stages whole pillars in shared memory -----------------------------------

constexpr int kTileThreads = 256;
constexpr size_t kTileSharedBytes = 48 * 1024;

// Shared bytes one pillar needs: its offsets, then x (backward also dy, the terms and the powers).
template <class C>
size_t tile_bytes_per_pillar(int channels, bool backward) {
    return 3 * sizeof(int64_t) + static_cast<size_t>(channels) * sizeof(C) * (backward ? 4 : 1);
}

// A block takes `tile` pillars at a time: loads their channels into shared memory in the order the memory
// runs (channels innermost when x's channel stride is 1, NHWC; pillars innermost otherwise, NCHW), so that
// loads and stores coalesce, then forms each output from the staged window, writing in the same order.
// Backward in two passes: every (pillar, channel)'s term and power first, then the gradients.
template <class C, bool Backward>
__global__ void __launch_bounds__(kTileThreads)
    lrn_tile_kernel(const __grid_constant__ LrnArgs a, int tile, int channels_inner) {
    extern __shared__ __align__(16) unsigned char staged[];
    const int channels = a.channels;
    int64_t *offsets = reinterpret_cast<int64_t *>(staged);  // [3][tile]: the result, x, dy
    C *xs = reinterpret_cast<C *>(offsets + 3 * tile);       // each [tile * channels]
    C *dys = xs + static_cast<size_t>(tile) * channels;
    C *terms = dys + static_cast<size_t>(tile) * channels;
    C *powers = terms + static_cast<size_t>(tile) * channels;
    const C scale = static_cast<C>(a.scale), lrn_k = static_cast<C>(a.lrn_k), lrn_beta = static_cast<C>(a.lrn_beta);
    const C factor = C(2) * scale * lrn_beta;
    for (int64_t first = static_cast<int64_t>(blockIdx.x) * tile; first < a.pillar_count;
         first += static_cast<int64_t>(gridDim.x) * tile) {
        const int count = static_cast<int>(min(static_cast<int64_t>(tile), a.pillar_count - first));
        for (int p = threadIdx.x; p < count; p += blockDim.x) {
            int64_t o[3];
            offsets_of<3>(a.pillars, first + p, o);
            offsets[p] = o[0];
            offsets[tile + p] = o[1];
            offsets[2 * tile + p] = o[2];
        }
        __syncthreads();
        const int elements = count * channels;
        // Element e as (pillar, channel) and its place in the staged arrays.
        auto split = [&](int e, int &p, int &c) {
            if (channels_inner) {
                p = e / channels;
                c = e - p * channels;
            } else {
                c = e / count;
                p = e - c * count;
            }
        };
        auto at = [&](int p, int c) { return channels_inner ? p * channels + c : c * tile + p; };
#pragma unroll 4
        for (int e = threadIdx.x; e < elements; e += blockDim.x) {  // unrolled: several loads in flight
            int p, c;
            split(e, p, c);
            xs[at(p, c)] = load_as<C>(a.x, a.type, offsets[tile + p] + c * a.x_c);
            if constexpr (Backward) dys[at(p, c)] = load_as<C>(a.dy, a.type, offsets[2 * tile + p] + c * a.dy_c);
        }
        __syncthreads();
        // s at (p, c): k + alpha / n * the window's sum of squares, taken afresh.
        auto scale_at = [&](int p, int c) {
            C squares = C(0);
            for (int w = max(c - a.behind, 0); w <= min(c + a.ahead, channels - 1); ++w) {
                const C v = xs[at(p, w)];
                squares += v * v;
            }
            return lrn_k + scale * squares;
        };
        if constexpr (!Backward) {
            for (int e = threadIdx.x; e < elements; e += blockDim.x) {
                int p, c;
                split(e, p, c);
                store_result<C>(a, offsets[p] + c * a.out_c, xs[at(p, c)] * power(scale_at(p, c), -lrn_beta));
            }
        } else {
            for (int e = threadIdx.x; e < elements; e += blockDim.x) {
                int p, c;
                split(e, p, c);
                const C s = scale_at(p, c), q = power(s, -lrn_beta - C(1));
                terms[at(p, c)] = dys[at(p, c)] * xs[at(p, c)] * q;
                powers[at(p, c)] = q * s;
            }
            __syncthreads();
            for (int e = threadIdx.x; e < elements; e += blockDim.x) {
                int p, c;
                split(e, p, c);
                C sum = C(0);  // over the channels whose window holds c
                for (int w = max(c - a.ahead, 0); w <= min(c + a.behind, channels - 1); ++w) sum += terms[at(p, w)];
                store_result<C>(a, offsets[p] + c * a.out_c,
                                dys[at(p, c)] * powers[at(p, c)] - factor * xs[at(p, c)] * sum);
            }
        }
        __syncthreads();  // the next tile overwrites what this one staged
    }
}

// The tile kernel's pillars a block (0: the ring kernel serves `problem` better: too many channels for a
// useful tile).
// Half the 48 KB where that holds a useful tile (twice the blocks an SM holds at once), else all of it.
template <class C>
int tile_pillars(const LrnArgs &a, bool backward, bool channels_inner) {
    const int least = channels_inner ? 1 : 16;
    for (size_t budget : {kTileSharedBytes / 2, kTileSharedBytes}) {
        const size_t fit = budget / tile_bytes_per_pillar<C>(a.channels, backward);
        const int tile = static_cast<int>(std::min<size_t>(fit, 128));
        if (tile >= least) return tile;
    }
    return 0;
}

template <class C>
Status launch_lrn(cudaStream_t stream, const LrnArgs &a, bool backward) {
    const bool channels_inner = a.x_c == 1;
    if (const int tile = tile_pillars<C>(a, backward, channels_inner)) {
        const size_t bytes = static_cast<size_t>(tile) * tile_bytes_per_pillar<C>(a.channels, backward);
        const int grid = grid_size((a.pillar_count + tile - 1) / tile, 1, kTileThreads, 4);
        if (backward) {
            lrn_tile_kernel<C, true><<<grid, kTileThreads, bytes, stream>>>(a, tile, channels_inner ? 1 : 0);
        } else {
            lrn_tile_kernel<C, false><<<grid, kTileThreads, bytes, stream>>>(a, tile, channels_inner ? 1 : 0);
        }
        return check_launch("lrn_tile_kernel");
    }
    const int grid = grid_size(a.pillar_count, kBlock, kBlock, 4);
    if (backward) {
        lrn_backward_kernel<C><<<grid, kBlock, 0, stream>>>(a);
    } else {
        lrn_forward_kernel<C><<<grid, kBlock, 0, stream>>>(a);
    }
    return check_launch(backward ? "lrn_backward_kernel" : "lrn_forward_kernel");
}

}  // namespace

const char *lrn_unsupported_reason(const LrnProblem &p) {
    // A thread walks its channels writing as it goes: in place it would overwrite inputs later
    // channels' windows still read.
    if (p.in_place) return "the CUDA kernels do not work in place (y on x, dx on dy)";
    ScalarType type;
    if (!scalar_type_of(p.x.dtype, &type) || !is_floating(type))
        return "the CUDA kernels take float, double, half and bfloat16";
    return nullptr;
}

Status lrn(cudaStream_t stream, const LrnProblem &p, const LrnBuffers &b) {
    if (const char *reason = lrn_unsupported_reason(p)) return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s", reason);
    const bool backward = p.direction == Direction::backward;
    const TensorGeometry &out = p.result();
    StridedLayout layout;
    layout.operands = 3;
    for (int i = 0; i < p.x.nb_dims; ++i) {
        if (i == 1) continue;
        layout.extents[layout.rank] = p.x.dims[i];
        layout.strides[0][layout.rank] = out.strides[i];
        layout.strides[1][layout.rank] = p.x.strides[i];
        layout.strides[2][layout.rank] = backward ? p.dy.strides[i] : 0;
        ++layout.rank;
    }
    layout.drop_unit_dims();
    layout.order_by(0);
    layout.coalesce();
    LrnArgs a{};
    a.pillars = to_device_layout(layout);
    a.pillar_count = p.x.element_count() / p.x.dims[1];
    a.channels = static_cast<int>(p.x.dims[1]);
    a.behind = p.behind();
    a.ahead = p.ahead();
    a.out_c = out.strides[1];
    a.x_c = p.x.strides[1];
    a.dy_c = backward ? p.dy.strides[1] : 0;
    scalar_type_of(p.x.dtype, &a.type);
    a.scale = p.lrn_alpha / p.n;
    a.lrn_beta = p.lrn_beta;
    a.lrn_k = p.lrn_k;
    a.alpha = p.alpha;
    a.beta = p.beta;
    a.x = b.x;
    a.dy = b.dy;
    a.out = b.result;
    if (a.pillar_count == 0) return CUDNN_STATUS_SUCCESS;
    return p.x.dtype == CUDNN_DATA_DOUBLE ? launch_lrn<double>(stream, a, backward)
                                          : launch_lrn<float>(stream, a, backward);
}

}  // namespace librednn::cuda
