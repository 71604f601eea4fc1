// The packed batch-norm training and backward kernels (training_packed.hpp).
#include "cuda/batch_norm/training_packed.hpp"

#include "core/cuda_failure.hpp"
#include "core/data_type.hpp"
#include "core/fault_injection.hpp"
#include "cuda/batch_norm/channel_constants.cuh"
#include "cuda/batch_norm/channel_results.cuh"
#include "cuda/batch_norm/lane_channels.cuh"
#include "cuda/common/dependent_launch.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <type_traits>

namespace librednn::cuda {

namespace {

constexpr int kBlock = 256;
constexpr int kWarpsPerBlock = kBlock / 32;
constexpr int kMaxChannels = 2048;     // five float constants a channel in 48 KiB of shared memory
constexpr int kStatsBlocks = 132 * 8;  // pass 1: enough blocks to fill an H200 (and fewer-SM parts) 8 times
constexpr int kRoundsPerBlock = 4;     // and no block longer than 4 rounds a thread: many short blocks, small tails
constexpr int kMergeBlock = 256;
constexpr int kPlaneChunkVectors = 128;  // NCHW planes of vectors: a warp's chunk, 4 vectors a lane
constexpr int kSmallChunkVectors = 64;   // planes of at most 64 vectors (14 x 14 float): 2 a lane

// ---- Pairwise merging of (count, mean, M2) ----------------------------------------------------------

// Merges (nb, mb, m2b) into (n, m, m2): Chan, Golub and LeVeque's update, exact in the count.
template <class F>
__device__ __forceinline__ void merge_moments(F &n, F &m, F &m2, F nb, F mb, F m2b) {
    if (nb == F(0)) return;
    const F total = n + nb, delta = mb - m, share = nb / total;
    m += delta * share;
    m2 += m2b + delta * delta * n * share;
    n = total;
}

// The moments of k values (k <= 4 or a vector's lanes), taken directly: mean first, then the squares of
// the deviations from it.
template <int K>
__device__ __forceinline__ void chunk_moments(const float (&v)[K], int k, float &mean, float &m2) {
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i) sum += i < k ? v[i] : 0.0f;
    mean = sum / static_cast<float>(k);
    m2 = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const float d = v[i] - mean;
        m2 += i < k ? d * d : 0.0f;
    }
}

// chunk_moments of K values all taken: the mean a multiplication by 1/K (exactly the division for K a power of
// two), no masks.
template <int K>
__device__ __forceinline__ void full_chunk_moments(const float (&v)[K], float &mean, float &m2) {
    static_assert((K & (K - 1)) == 0, "1/K must be exact");
    float sum = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i) sum += v[i];
    mean = sum * (1.0f / static_cast<float>(K));
    m2 = 0.0f;
#pragma unroll
    for (int i = 0; i < K; ++i) {
        const float d = v[i] - mean;
        m2 += d * d;
    }
}

// `parts` sets of moments (count n[i], mean m[i * stride], M2 q[i * stride]) merged in two passes, in order: the
// mean from the counts and the means, then M2 as the parts' M2 plus each part's count times the square of its
// mean's distance from the mean. No division a part (Chan's update takes one); the same sums as the parts' merge
// in pass 2, in float.
__device__ __forceinline__ void merge_parts(int parts, const float *n, const float *m, const float *q, int stride,
                                            float &count, float &mean, float &m2) {
    float total = 0.0f;
    count = 0.0f;
    for (int i = 0; i < parts; ++i) {
        count += n[i];
        total += n[i] * m[i * stride];
    }
    mean = count > 0.0f ? total / count : 0.0f;
    m2 = 0.0f;
    for (int i = 0; i < parts; ++i) {
        const float d = m[i * stride] - mean;
        m2 += q[i * stride] + n[i] * d * d;
    }
}

// ---- Pass 1: statistics of each part ------------------------------------------------------------------

struct StatsArgs {
    const void *x, *dy;
    int64_t planes_or_rows;            // NCHW vectors: N * C planes; NCHW scalar: N images; NHWC: N * S rows
    int64_t vectors_per_plane_or_row;  // NCHW vectors: a plane's; NHWC: a row's
    int channels;
    int chunks_per_plane;         // NCHW vectors
    FastDivisor spatial;          // NCHW scalar: S, values a plane
    int64_t values_per_split;     // NCHW scalar
    int tile_vectors, tile_rows;  // NHWC: vectors of a tile's row, rows in flight per block
    int64_t rows_per_split;       // NHWC
    int64_t parts;                // P: parts per channel
    int small_plane_vectors;      // NCHW small planes: each image's stretch of a block's planes in whole vectors
    int backward;
    const float *mean, *inv_std;   // backward: the saved statistics
    float *part0, *part1, *part2;  // [C][P]: forward count, mean, M2; backward sum dy, sum dy (x - mean)
};

// NCHW planes of whole vectors: a warp per chunk of one plane (image n, channel c) of up to 32 * kPerLane
// vectors, the warps of the grid looping over the chunks. Lane l holds vectors l, l + 32, ... of its chunk,
// all loaded before any is used. Forward: the chunk's mean first, then the squared deviations from it, each
// summed over the warp (one chunk, one set of moments: no per-vector merges); backward: the chunk's sums of
// dy and dy * (x - mean).
template <class T, int kPerLane>
__global__ void __launch_bounds__(kBlock) stats_nchw_planes_kernel(const __grid_constant__ StatsArgs a) {
    allow_dependent_launch();
    constexpr int kLanes = Vector16<T>::kLanes, kChunk = 32 * kPerLane;
    const int lane = threadIdx.x % 32;
    const int64_t items = a.planes_or_rows * a.chunks_per_plane;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * kWarpsPerBlock;
    const auto *x = static_cast<const Vector16<T> *>(a.x);
    const auto *dy = static_cast<const Vector16<T> *>(a.dy);
    for (int64_t item = static_cast<int64_t>(blockIdx.x) * kWarpsPerBlock + threadIdx.x / 32; item < items;
         item += warps) {
        const int64_t plane = item / a.chunks_per_plane;
        const int chunk = static_cast<int>(item - plane * a.chunks_per_plane);
        const int64_t left = a.vectors_per_plane_or_row - static_cast<int64_t>(chunk) * kChunk;
        const int count = static_cast<int>(left < kChunk ? left : kChunk);
        const int64_t first = plane * a.vectors_per_plane_or_row + static_cast<int64_t>(chunk) * kChunk;
        Vector16<T> xv[kPerLane], gv[kPerLane];
#pragma unroll
        for (int j = 0; j < kPerLane; ++j) {
            if (lane + 32 * j < count) {
                xv[j] = x[first + lane + 32 * j];
                if (a.backward) gv[j] = dy[first + lane + 32 * j];
            }
        }
        const int c = static_cast<int>(plane % a.channels);
        float s1 = 0.0f, s2 = 0.0f;  // forward: mean, M2; backward: sum dy, sum dy (x - mean)
        if (!a.backward) {
#pragma unroll
            for (int j = 0; j < kPerLane; ++j) {
#pragma unroll
                for (int l = 0; l < kLanes; ++l) s1 += lane + 32 * j < count ? to_compute<float>(xv[j].lane[l]) : 0.0f;
            }
            s1 = warp_sum(s1) / static_cast<float>(count * kLanes);
#pragma unroll
            for (int j = 0; j < kPerLane; ++j) {
#pragma unroll
                for (int l = 0; l < kLanes; ++l) {
                    const float d = to_compute<float>(xv[j].lane[l]) - s1;
                    s2 += lane + 32 * j < count ? d * d : 0.0f;
                }
            }
        } else {
            const float mean = a.mean[c];
#pragma unroll
            for (int j = 0; j < kPerLane; ++j) {
                if (lane + 32 * j < count) {
#pragma unroll
                    for (int l = 0; l < kLanes; ++l) {
                        const float g = to_compute<float>(gv[j].lane[l]);
                        s1 += g;
                        s2 += g * (to_compute<float>(xv[j].lane[l]) - mean);
                    }
                }
            }
            s1 = warp_sum(s1);
        }
        s2 = warp_sum(s2);
        if (lane == 0) {
            const int64_t n_image = plane / a.channels;
            const int64_t at = static_cast<int64_t>(c) * a.parts + n_image * a.chunks_per_plane + chunk;
            if (!a.backward) a.part0[at] = static_cast<float>(count * kLanes);
            a.part1[at] = s1;
            a.part2[at] = s2;
        }
    }
}

// One lane of a loaded item (a scalar, or a 16-byte vector's lane l), in float.
template <class T>
__device__ __forceinline__ float lane_value(const T &item, int) {
    return to_compute<float>(item);
}
template <class T>
__device__ __forceinline__ float lane_value(const Vector16<T> &item, int l) {
    return to_compute<float>(item.lane[l]);
}

// NCHW planes that are not whole vectors (7 x 7): a block per (channel c, range of its values). The
// channel's values, numbered i = n * S + s, sit at n * C * S + c * S + s: runs of S contiguous elements,
// so consecutive threads read consecutive items (single elements here; kLanes > 1 would read 16-byte
// vectors). Each thread loads eight items a round (eight loads in flight), takes their moments at once and
// merges them into its own; then the block merges its threads in a fixed order.
template <class T, int kLanes>
__global__ void __launch_bounds__(kBlock) stats_nchw_kernel(const __grid_constant__ StatsArgs a) {
    allow_dependent_launch();
    using Item = typename std::conditional<kLanes == 1, T, Vector16<T>>::type;
    constexpr int kLoads = 8, kValues = kLoads * kLanes;
    __shared__ float shared[3][kWarpsPerBlock];
    const int c = blockIdx.x, split = blockIdx.y;
    const int64_t plane = a.spatial.divisor;         // items a plane
    const int64_t count = a.planes_or_rows * plane;  // items of the channel
    const int64_t begin = static_cast<int64_t>(split) * a.values_per_split;
    const int64_t end = begin + a.values_per_split < count ? begin + a.values_per_split : count;
    const int64_t plane_stride = static_cast<int64_t>(a.channels) * plane;
    const Item *x = static_cast<const Item *>(a.x) + static_cast<int64_t>(c) * plane;
    const Item *dy = static_cast<const Item *>(a.dy) + static_cast<int64_t>(c) * plane;
    const float mean = a.backward ? a.mean[c] : 0.0f;
    float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f;  // forward: n, mean, M2; backward: -, sum dy, sum dy (x - mean)
    for (int64_t i0 = begin + threadIdx.x; i0 < end; i0 += static_cast<int64_t>(kLoads) * kBlock) {
        Item xs[kLoads], gs[kLoads];
        int k = 0;
#pragma unroll
        for (int j = 0; j < kLoads; ++j) {
            const int64_t i = i0 + static_cast<int64_t>(j) * kBlock;
            if (i < end) {
                const int64_t image = divide(a.spatial, i);
                const int64_t at = image * plane_stride + (i - image * plane);
                xs[j] = x[at];
                if (a.backward) gs[j] = dy[at];
                k = j + 1;
            }
        }
        float values[kValues];
#pragma unroll
        for (int j = 0; j < kLoads; ++j) {
#pragma unroll
            for (int l = 0; l < kLanes; ++l) values[j * kLanes + l] = j < k ? lane_value(xs[j], l) : 0.0f;
        }
        if (!a.backward) {
            float m, m2;
            chunk_moments(values, k * kLanes, m, m2);
            merge_moments(s0, s1, s2, static_cast<float>(k * kLanes), m, m2);
        } else {
#pragma unroll
            for (int j = 0; j < kLoads; ++j) {
                if (j < k) {
#pragma unroll
                    for (int l = 0; l < kLanes; ++l) {
                        const float g = lane_value(gs[j], l);
                        s1 += g;
                        s2 += g * (values[j * kLanes + l] - mean);
                    }
                }
            }
        }
    }
    // The warp's lanes in a fixed order, then the block's warps.
    for (int offset = 16; offset > 0; offset /= 2) {
        const float o0 = __shfl_down_sync(0xffffffffu, s0, offset);
        const float o1 = __shfl_down_sync(0xffffffffu, s1, offset);
        const float o2 = __shfl_down_sync(0xffffffffu, s2, offset);
        if (!a.backward) {
            merge_moments(s0, s1, s2, o0, o1, o2);
        } else {
            s1 += o1;
            s2 += o2;
        }
    }
    const int warp = threadIdx.x / 32;
    if (threadIdx.x % 32 == 0) {
        shared[0][warp] = s0;
        shared[1][warp] = s1;
        shared[2][warp] = s2;
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    s0 = shared[0][0];
    s1 = shared[1][0];
    s2 = shared[2][0];
    for (int w = 1; w < kWarpsPerBlock; ++w) {
        if (!a.backward) {
            merge_moments(s0, s1, s2, shared[0][w], shared[1][w], shared[2][w]);
        } else {
            s1 += shared[1][w];
            s2 += shared[2][w];
        }
    }
    const int64_t at = static_cast<int64_t>(c) * a.parts + split;
    if (!a.backward) a.part0[at] = s0;
    a.part1[at] = s1;
    a.part2[at] = s2;
}

// NCHW forward statistics over small planes (at most kSmallPlane values, 7 x 7): a block per (16 consecutive
// channels, range of images). For 8 images at a time it copies each image's 16 planes, one contiguous stretch,
// into shared memory (each plane at an odd stride), then thread (channel, image) takes its plane's moments
// (mean first, then the squared deviations: one merge a plane, not one a value) and merges them into its own;
// at the end the block merges each channel's 8 threads in a fixed order. Reads are whole warps of
// consecutive elements; the per-element merges and index divisions of stats_nchw_kernel are gone.
constexpr int kSmallPlane = 64, kPlaneChannels = 16, kPlaneImages = 8;
constexpr int kSmallPlaneBlock = kPlaneChannels * kPlaneImages;

template <class T>
__global__ void __launch_bounds__(kSmallPlaneBlock)
    stats_nchw_small_planes_kernel(const __grid_constant__ StatsArgs a) {
    allow_dependent_launch();
    __shared__ float values[kSmallPlaneBlock * (kSmallPlane + 1)];
    __shared__ float merged[3][kSmallPlaneBlock];
    const int S = static_cast<int>(a.spatial.divisor), stride = S | 1;
    const int c0 = blockIdx.x * kPlaneChannels, split = blockIdx.y;
    const int channels = min(kPlaneChannels, a.channels - c0);
    const int64_t image_begin = static_cast<int64_t>(split) * a.values_per_split;
    const int64_t image_end = min(image_begin + a.values_per_split, a.planes_or_rows);
    const int channel = threadIdx.x % kPlaneChannels, image = threadIdx.x / kPlaneChannels;
    const T *x = static_cast<const T *>(a.x);
    const int chunk = channels * S;  // an image's stretch of the block's planes
    float n = 0.0f, mean = 0.0f, m2 = 0.0f;
    for (int64_t first = image_begin; first < image_end; first += kPlaneImages) {
        const int images = static_cast<int>(min(static_cast<int64_t>(kPlaneImages), image_end - first));
        __syncthreads();  // the previous batch's planes are taken
        if (a.small_plane_vectors) {
            // Whole 16-byte vectors: every image's stretch starts on one (C x S and the block's first plane
            // a multiple of the lanes, 16 channels a block).
            constexpr int kLanes = Vector16<T>::kLanes;
            const int per_image = chunk / kLanes;
#pragma unroll 4
            for (int v = threadIdx.x; v < images * per_image; v += kSmallPlaneBlock) {
                const int i = v / per_image, into = (v - i * per_image) * kLanes;
                const Vector16<T> in =
                    *reinterpret_cast<const Vector16<T> *>(x + ((first + i) * a.channels + c0) * S + into);
                int plane = static_cast<int>(divide(a.spatial, into)), k = into - plane * S;
                float *to = values + i * kPlaneChannels * stride;
#pragma unroll
                for (int l = 0; l < kLanes; ++l) {
                    to[plane * stride + k] = to_compute<float>(in.lane[l]);
                    if (++k == S) k = 0, ++plane;
                }
            }
        } else {
            for (int e = threadIdx.x; e < images * chunk; e += kSmallPlaneBlock) {
                const int i = e / chunk, into = e - i * chunk;
                const int plane = static_cast<int>(divide(a.spatial, into)), k = into - plane * S;
                values[(i * kPlaneChannels + plane) * stride + k] =
                    to_compute<float>(x[((first + i) * a.channels + c0) * S + into]);
            }
        }
        __syncthreads();
        if (channel < channels && image < images) {
            const float *v = values + (image * kPlaneChannels + channel) * stride;
            float sum = 0.0f;
            for (int k = 0; k < S; ++k) sum += v[k];
            const float m = sum / static_cast<float>(S);
            float d2 = 0.0f;
            for (int k = 0; k < S; ++k) {
                const float d = v[k] - m;
                d2 += d * d;
            }
            merge_moments(n, mean, m2, static_cast<float>(S), m, d2);
        }
    }
    merged[0][threadIdx.x] = n;
    merged[1][threadIdx.x] = mean;
    merged[2][threadIdx.x] = m2;
    __syncthreads();
    if (image != 0 || channel >= channels) return;
    for (int i = 1; i < kPlaneImages; ++i) {
        const int o = i * kPlaneChannels + channel;
        merge_moments(n, mean, m2, merged[0][o], merged[1][o], merged[2][o]);
    }
    const int64_t at = static_cast<int64_t>(c0 + channel) * a.parts + split;
    a.part0[at] = n;
    a.part1[at] = mean;
    a.part2[at] = m2;
}

// NHWC: a block per (tile of channels, range of rows); thread (row r, vector v) walks rows r, r + rows in
// flight, ... of the range, eight at a time, then the block merges each channel's rows in a fixed order.
// Forward over float and half: three blocks an SM (80 registers; half spills 48 bytes, bfloat16 would spill more).
// A round of eight rows is compiled twice: full (every round but a thread's last; no masks, the chunk's mean a
// multiplication by 1/8, which is the division's exact result) and partial (masked, divided by its count).
template <class T>
constexpr int kNhwcForwardBlocks = std::is_same_v<T, __nv_bfloat16> ? 1 : 3;

template <class T, bool kBackward>
__global__ void __launch_bounds__(kBlock, kBackward ? 1 : kNhwcForwardBlocks<T>)
    stats_nhwc_kernel(const __grid_constant__ StatsArgs a) {
    constexpr int kLanes = Vector16<T>::kLanes;
    __shared__ float shared1[kBlock * kLanes], shared2[kBlock * kLanes], shared0[kBlock];
    allow_dependent_launch();
    const int v = threadIdx.x % a.tile_vectors, r = threadIdx.x / a.tile_vectors;
    const int tile = blockIdx.x, split = blockIdx.y;
    const int64_t row_begin = static_cast<int64_t>(split) * a.rows_per_split;
    const int64_t row_end =
        row_begin + a.rows_per_split < a.planes_or_rows ? row_begin + a.rows_per_split : a.planes_or_rows;
    const int64_t column = static_cast<int64_t>(tile) * a.tile_vectors + v;  // the vector's index in a row
    const int c0 = static_cast<int>(column * kLanes);
    const auto *x = static_cast<const Vector16<T> *>(a.x);
    const auto *dy = static_cast<const Vector16<T> *>(a.dy);
    float n = 0.0f, s1[kLanes], s2[kLanes], mean[kLanes];
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
        s1[l] = s2[l] = 0.0f;
        mean[l] = kBackward ? a.mean[c0 + l] : 0.0f;
    }
    constexpr int kRows = 8;
    Vector16<T> xv[kRows], gv[kRows];
    // One round's sums over its k loaded rows (Full: k == kRows).
    auto round = [&](auto full, int k) {
        constexpr bool kFull = decltype(full)::value;
        // merge_moments with its share k / (n + k), the same for every lane, taken once a round.
        const float share = kBackward ? 0.0f : static_cast<float>(k) / (n + static_cast<float>(k));
#pragma unroll
        for (int l = 0; l < kLanes; ++l) {
            float values[kRows];
#pragma unroll
            for (int i = 0; i < kRows; ++i) values[i] = kFull || i < k ? to_compute<float>(xv[i].lane[l]) : 0.0f;
            if (!kBackward) {
                float m, m2;
                if constexpr (kFull) {
                    full_chunk_moments(values, m, m2);
                } else {
                    chunk_moments(values, k, m, m2);
                }
                const float delta = m - s1[l];
                s1[l] += delta * share;
                s2[l] += m2 + delta * delta * n * share;
            } else {
#pragma unroll
                for (int i = 0; i < kRows; ++i) {
                    if (kFull || i < k) {
                        const float g = to_compute<float>(gv[i].lane[l]);
                        s1[l] += g;
                        s2[l] += g * (values[i] - mean[l]);
                    }
                }
            }
        }
        n += static_cast<float>(k);
    };
    for (int64_t row = row_begin + r; row < row_end; row += static_cast<int64_t>(kRows) * a.tile_rows) {
        int k = 0;
#pragma unroll
        for (int i = 0; i < kRows; ++i) {
            const int64_t at = row + static_cast<int64_t>(i) * a.tile_rows;
            if (at < row_end) {
                xv[i] = x[at * a.vectors_per_plane_or_row + column];
                if (kBackward) gv[i] = dy[at * a.vectors_per_plane_or_row + column];
                k = i + 1;
            }
        }
        if (k == kRows) {
            round(std::true_type{}, k);
        } else {
            round(std::false_type{}, k);
        }
    }
    // Each channel of the tile: merge the rows in flight, in order. Forward: in two passes, without a division a
    // row (merge_parts).
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
        shared1[r * a.tile_vectors * kLanes + v * kLanes + l] = s1[l];
        shared2[r * a.tile_vectors * kLanes + v * kLanes + l] = s2[l];
    }
    if (v == 0) shared0[r] = n;
    __syncthreads();
    const int tile_channels = a.tile_vectors * kLanes;
    for (int j = threadIdx.x; j < tile_channels; j += blockDim.x) {
        float tn = 0.0f, t1 = 0.0f, t2 = 0.0f;
        if (!kBackward) {
            merge_parts(a.tile_rows, shared0, shared1 + j, shared2 + j, tile_channels, tn, t1, t2);
        } else {
            for (int i = 0; i < a.tile_rows; ++i) {
                t1 += shared1[i * tile_channels + j];
                t2 += shared2[i * tile_channels + j];
            }
        }
        const int64_t at = (static_cast<int64_t>(tile) * tile_channels + j) * a.parts + split;
        if (!kBackward) a.part0[at] = tn;
        a.part1[at] = t1;
        a.part2[at] = t2;
    }
}

// ---- Pass 2: a block (or a warp) per channel merges its parts --------------------------------------
// Every pass lets the next launch as soon as each of its blocks has started (allow_dependent_launch); the merge
// and the element-wise pass, launched as dependents, wait for the pass before at the first read of its results,
// the merge once it has requested each channel's parameters and old running values (ChannelInputs).

struct MergeArgs {
    int64_t parts;
    double count;  // values per channel
    int backward;
    ChannelResults results;
    const float *part0, *part1, *part2;
    // Per channel, for pass 3: forward mean, gain, bias; backward mean, inv_std, gain, bias term, scale term.
    float *constants;
    int channels;
};

// Channel c's merged moments (forward: count, mean, M2; backward: -, sum dy, sum dy (x - mean)): the saved
// and running statistics or dscale and dbias, and the constants of pass 3. `in`: the channel's inputs
// (load_channel_inputs), loaded by the finishing thread before the kernel waited for pass 1.
__device__ void finish_channel(const MergeArgs &a, int c, double sum1, double sum2, const ChannelInputs &in) {
    const ChannelResults &r = a.results;
    const int64_t po = static_cast<int64_t>(c) * r.parameter_stride;
    const float scale = in.scale, count = static_cast<float>(a.count);
    float *k = a.constants;
    const int C = a.channels;
    if (!a.backward) {
        const float mean = static_cast<float>(sum1);
        const float inv_std = write_channel_statistics(r, po, mean, static_cast<float>(sum2 / a.count), count, in);
        k[c] = mean;
        k[C + c] = scale * inv_std;
        k[2 * C + c] = in.bias;
        return;
    }
    const float mean = in.saved_mean, inv_std = in.saved_inv_std;
    const float dbias = static_cast<float>(sum1), dscale = static_cast<float>(sum2) * inv_std;
    write_channel_gradients(r, po, dscale, dbias, in);
    k[c] = mean;
    k[C + c] = inv_std;
    k[2 * C + c] = scale * inv_std;
    k[3 * C + c] = dbias / count;
    k[4 * C + c] = dscale / count;
}

// Channel c's parts merged in two passes over them, in double: the mean from the counts and the parts' means,
// then M2 as the parts' M2 plus each part's count times the square of its mean's distance from the mean (no
// division a part, no cancellation); backward, the sums. `sum` adds a value over the threads that share the
// channel (`threads` of them in all) in a fixed order and gives the total to each.
template <class Sum>
__device__ __forceinline__ void merge_channel(const MergeArgs &a, int c, int thread, int threads,
                                              const ChannelInputs &in, Sum &&sum) {
    const float *p0 = a.part0 + static_cast<int64_t>(c) * a.parts, *p1 = a.part1 + static_cast<int64_t>(c) * a.parts,
                *p2 = a.part2 + static_cast<int64_t>(c) * a.parts;
    if (a.backward) {
        double s1 = 0.0, s2 = 0.0;
#pragma unroll 4
        for (int64_t p = thread; p < a.parts; p += threads) {
            s1 += p1[p];
            s2 += p2[p];
        }
        s1 = sum(s1);
        s2 = sum(s2);
        if (thread == 0) finish_channel(a, c, s1, s2, in);
        return;
    }
    double n = 0.0, total = 0.0;
#pragma unroll 4
    for (int64_t p = thread; p < a.parts; p += threads) {
        n += p0[p];
        total += static_cast<double>(p0[p]) * p1[p];
    }
    n = sum(n);
    total = sum(total);
    const double mean = n > 0.0 ? total / n : 0.0;
    double m2 = 0.0;
#pragma unroll 4
    for (int64_t p = thread; p < a.parts; p += threads) {
        const double d = p1[p] - mean;
        m2 += p2[p] + p0[p] * d * d;
    }
    m2 = sum(m2);
    if (thread == 0) finish_channel(a, c, mean, m2, in);
}

// A block per channel (channels of many parts). The block's sum: each warp's by a butterfly, then the warps' in warp
// order, read by every thread (two barriers a sum; a halving tree in shared memory took ten).
__global__ void __launch_bounds__(kMergeBlock) merge_kernel(const __grid_constant__ MergeArgs a) {
    constexpr int kWarps = kMergeBlock / 32;
    __shared__ double warp_totals[kWarps];
    allow_dependent_launch();
    const int c = blockIdx.x;
    ChannelInputs in{};
    if (threadIdx.x == 0) in = load_channel_inputs(a.results, c * a.results.parameter_stride, a.backward);
    wait_for_prerequisite_grid();
    merge_channel(a, c, threadIdx.x, kMergeBlock, in, [&](double v) {
        v = warp_sum(v);
        if (threadIdx.x % 32 == 0) warp_totals[threadIdx.x / 32] = v;
        __syncthreads();
        double total = 0.0;
#pragma unroll
        for (int w = 0; w < kWarps; ++w) total += warp_totals[w];
        __syncthreads();  // read before the next sum writes
        return total;
    });
}

// A warp per channel, for channels of at most kWarpMergeParts parts (many channels, few parts each: a lane's
// loads in one batch).
constexpr int kWarpMergeParts = 64;

__global__ void __launch_bounds__(kMergeBlock) merge_warp_kernel(const __grid_constant__ MergeArgs a) {
    allow_dependent_launch();
    const int c = blockIdx.x * (kMergeBlock / 32) + threadIdx.x / 32;
    if (c >= a.channels) return;
    ChannelInputs in{};
    if (threadIdx.x % 32 == 0) in = load_channel_inputs(a.results, c * a.results.parameter_stride, a.backward);
    wait_for_prerequisite_grid();
    merge_channel(a, c, threadIdx.x % 32, 32, in, [](double v) { return warp_sum(v); });
}

// ---- Pass 3: element-wise, with each channel's constants on chip (channel_constants.cuh) -------------

struct ApplyArgs {
    int64_t vectors;
    FastDivisor spatial_vectors;  // NCHW: vectors a plane (elements a plane, for planes of partial vectors)
    FastDivisor spatial;          // NCHW: elements a plane
    FastDivisor channel_vectors;  // NHWC: vectors a row
    FastDivisor channel_count;    // C
    int channels, backward;
    int lane_channels;  // NCHW planes that are not whole vectors (7 x 7): each lane finds its channel
    int interleaved;    // NCHW: channel_range's choice
    float alpha, beta;
    const void *x, *dy;
    void *out;
    const float *constants;
};

// The element-wise kernels' resident blocks an SM at the least: three (85 registers), two for the backward over
// 16-bit types (five constants of eight lanes, four vectors each of x and dy in flight; bfloat16's took 154).
template <class T, bool kBackward>
constexpr int kApplyBlocks = kBackward && sizeof(T) == 2 ? 2 : 3;

// A vector of x and, backward, of dy, as bits (lanes_of): what the element-wise pass loads a vector.
struct ApplyInputs {
    uint4 x, dy;
};

template <bool kBackward>
__device__ __forceinline__ ApplyInputs load_apply_inputs(const ApplyArgs &a, int64_t v) {
    ApplyInputs in;
    in.x = bits_at(a.x, v);
    if (kBackward) in.dy = bits_at(a.dy, v);
    return in;
}

// One vector's result from its channels' constants k[0..4][lane]: forward y = k1 (x - k0) + k2; backward
// dx = k2 (dy - k3 - (x - k0) k1 k4).
template <class T, bool kBackward, class Constant>
__device__ __forceinline__ Vector16<T> apply_vector(const ApplyArgs &a, const ApplyInputs &in, const Vector16<T> *out,
                                                    int64_t v, Constant &&k) {
    constexpr int kLanes = Vector16<T>::kLanes;
    const Vector16<T> x = lanes_of<T>(in.x), dy = lanes_of<T>(in.dy);
    Vector16<T> result;
    if (a.beta != 0.0f) result = out[v];
#pragma unroll
    for (int l = 0; l < kLanes; ++l) {
        const float centred = to_compute<float>(x.lane[l]) - k(0, l);
        float value;
        if constexpr (!kBackward) {
            value = k(1, l) * centred + k(2, l);
        } else {
            const float x_hat = centred * k(1, l);
            value = k(2, l) * (to_compute<float>(dy.lane[l]) - k(3, l) - x_hat * k(4, l));
        }
        value *= a.alpha;
        if (a.beta != 0.0f) value += a.beta * to_compute<float>(result.lane[l]);
        result.lane[l] = from_compute<T>(value);
    }
    return result;
}

// NCHW: the block's share of the vectors (channel_range), its channels' constants staged in shared memory. Launched
// as a dependent of the merge (the constants), it loads its first vectors of x (and dy) before it waits.
template <class T, bool kBackward>
__global__ void __launch_bounds__(kBlock, kApplyBlocks<T, kBackward>)
    apply_nchw_kernel(const __grid_constant__ ApplyArgs a) {
    extern __shared__ float staged[];
    constexpr int kLanes = Vector16<T>::kLanes, arrays = kBackward ? 5 : 3;
    const int C = a.channels;
    const ChannelRange range = channel_range(a.vectors, kLanes, a.spatial, a.channel_count, a.interleaved);
    auto *out = static_cast<Vector16<T> *>(a.out);
    auto vector_at = [&](int64_t j) { return a.vectors - 1 - (range.begin + j * range.step); };
    walk_vectors<ApplyInputs>(
        range.begin < range.end ? (range.end - range.begin + range.step - 1) / range.step : 0,
        [&](int64_t j) { return load_apply_inputs<kBackward>(a, vector_at(j)); },
        [&] {
            wait_for_prerequisite_grid();
            // Four constants a thread at a time, their loads issued together.
            constexpr int kBatch = 4;
            const int count = arrays * range.staged;
            for (int i0 = threadIdx.x; i0 < count; i0 += kBatch * blockDim.x) {
                float value[kBatch];
#pragma unroll
                for (int u = 0; u < kBatch; ++u) {
                    const int i = i0 + u * static_cast<int>(blockDim.x);
                    const int array = i / range.staged, j = i - array * range.staged;
                    if (i < count) value[u] = a.constants[array * C + staged_channel(range, j, C)];
                }
#pragma unroll
                for (int u = 0; u < kBatch; ++u) {
                    const int i = i0 + u * static_cast<int>(blockDim.x);
                    if (i < count) staged[i] = value[u];
                }
            }
            __syncthreads();
        },
        [&](int64_t j, const ApplyInputs &in) {
            const int64_t v = vector_at(j);
            // a.spatial: elements a plane (spatial_vectors counts vectors where planes are whole vectors).
            const VectorChannels lanes =
                vector_channels(range, a.lane_channels, a.spatial, a.channel_count, v * kLanes);
            out[v] = apply_vector<T, kBackward>(
                a, in, out, v, [&](int array, int l) { return staged[array * range.staged + lanes.of(l)]; });
        });
}

// NHWC: each thread's vectors hold the same channels (nhwc_grid); their constants stay in registers. Launched as a
// dependent of the merge, like the NCHW kernel.
template <class T, bool kBackward>
__global__ void __launch_bounds__(kBlock, kApplyBlocks<T, kBackward>)
    apply_nhwc_kernel(const __grid_constant__ ApplyArgs a) {
    constexpr int kLanes = Vector16<T>::kLanes, arrays = kBackward ? 5 : 3;
    const int64_t first = nhwc_first_vector(a.vectors);
    if (first < 0) return;
    const int C = a.channels;
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    auto *out = static_cast<Vector16<T> *>(a.out);
    float k[arrays][kLanes];
    walk_vectors<ApplyInputs>(
        first / stride + 1, [&](int64_t j) { return load_apply_inputs<kBackward>(a, first - j * stride); },
        [&] {
            wait_for_prerequisite_grid();
            const int c0 =
                static_cast<int>(first - divide(a.channel_vectors, first) * a.channel_vectors.divisor) * kLanes;
#pragma unroll
            for (int array = 0; array < arrays; ++array) {
#pragma unroll
                for (int l = 0; l < kLanes; ++l) k[array][l] = a.constants[array * C + c0 + l];
            }
        },
        [&](int64_t j, const ApplyInputs &in) {
            const int64_t v = first - j * stride;
            out[v] = apply_vector<T, kBackward>(a, in, out, v, [&](int array, int l) { return k[array][l]; });
        });
}

// The same one element a thread, for NCHW tensors that are not whole vectors (N x C x S not a multiple of
// the lanes); the constants come through the L1 cache (neighbouring elements share a channel).
template <class T>
__global__ void __launch_bounds__(kBlock) apply_scalar_kernel(const __grid_constant__ ApplyArgs a) {
    const int C = a.channels;
    const float *k0 = a.constants, *k1 = k0 + C, *k2 = k1 + C, *k3 = k2 + C, *k4 = k3 + C;
    const T *x = static_cast<const T *>(a.x), *dy = static_cast<const T *>(a.dy);
    T *out = static_cast<T *>(a.out);
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < a.vectors;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t plane = divide(a.spatial_vectors, e);
        const int c = static_cast<int>(plane - divide(a.channel_count, plane) * C);
        const float centred = to_compute<float>(x[e]) - __ldg(k0 + c);
        float value;
        if (!a.backward) {
            value = __ldg(k1 + c) * centred + __ldg(k2 + c);
        } else {
            const float x_hat = centred * __ldg(k1 + c);
            value = __ldg(k2 + c) * (to_compute<float>(dy[e]) - __ldg(k3 + c) - x_hat * __ldg(k4 + c));
        }
        value *= a.alpha;
        if (a.beta != 0.0f) value += a.beta * to_compute<float>(out[e]);
        out[e] = from_compute<T>(value);
    }
}

// Whether the merge and element-wise passes launch as programmatic dependents of the pass before
// (dependent_launch.cuh): where `kernel` as loaded is sm_90 code, unless LIBREDNN_BN_DEPENDENT_LAUNCH=0.
template <auto kKernel>
bool dependent_launches() {
    static const bool dependent =
        !switched_off("LIBREDNN_BN_DEPENDENT_LAUNCH") && built_for_sm90(reinterpret_cast<const void *>(kKernel));
    return dependent;
}

bool aligned16_host(const void *pointer) {
    return pointer == nullptr || (reinterpret_cast<uintptr_t>(pointer) & 15u) == 0;
}

// Whether `t` is packed NCHW (channels_last false) or NHWC (true) over x's dims.
bool packed_as(const TensorGeometry &t, const TensorGeometry &x, bool channels_last) {
    for (int i = 0; i < x.nb_dims; ++i) {
        if (t.dims[i] != x.dims[i]) return false;
    }
    int64_t expected = 1;
    if (!channels_last) {
        for (int i = t.nb_dims - 1; i >= 0; --i) {
            if (t.dims[i] > 1 && t.strides[i] != expected) return false;
            expected *= t.dims[i];
        }
        return true;
    }
    if (t.dims[1] > 1 && t.strides[1] != 1) return false;
    expected = t.dims[1];
    for (int i = t.nb_dims - 1; i >= 2; --i) {
        if (t.dims[i] > 1 && t.strides[i] != expected) return false;
        expected *= t.dims[i];
    }
    return t.dims[0] == 1 || t.strides[0] == expected;
}

// NHWC when x is packed channels-last (and not also NCHW, as with a single channel).
bool layout_of(const BatchNormProblem &p, bool *channels_last) {
    const bool backward = p.phase == BatchNormPhase::backward;
    for (bool last : {false, true}) {
        if (!packed_as(p.x, p.x, last)) continue;
        if (!packed_as(backward ? p.dy : p.y, p.x, last)) continue;
        if (backward && !packed_as(p.dx, p.x, last)) continue;
        *channels_last = last;
        return true;
    }
    return false;
}

// Pass 3 over whole vectors, launched as a dependent of the merge where it may be.
template <class T, bool kBackward>
Status launch_apply(cudaStream_t stream, ApplyArgs &a, bool channels_last, int64_t elements) {
    constexpr int kLanes = Vector16<T>::kLanes;
    if (channels_last) {
        static const ResidentBlocks resident(reinterpret_cast<const void *>(apply_nhwc_kernel<T, kBackward>), kBlock);
        const dim3 grid(nhwc_grid(resident, a.vectors, a.channels / kLanes, kBlock));
        return launch_maybe_dependent(stream, apply_nhwc_kernel<T, kBackward>, a, grid, kBlock, 0,
                                      dependent_launches<apply_nhwc_kernel<T, kBackward>>(), "batch_norm_apply_kernel");
    }
    // At most C channels' constants a block (under 48 KiB: kMaxChannels); resident blocks counted at the most.
    constexpr int arrays = kBackward ? 5 : 3;
    static const ResidentBlocks resident(reinterpret_cast<const void *>(apply_nchw_kernel<T, kBackward>), kBlock,
                                         arrays * kMaxChannels * sizeof(float));
    const int64_t tensors = kBackward ? 3 : 2;  // x and y; x, dy and dx
    const NchwGrid grid = nchw_grid(resident, a.vectors, elements * static_cast<int64_t>(sizeof(T)) * tensors,
                                    a.channels, arrays, kBlock);
    a.interleaved = grid.interleaved;
    const size_t shared = arrays * static_cast<size_t>(a.channels) * sizeof(float);
    return launch_maybe_dependent(stream, apply_nchw_kernel<T, kBackward>, a, dim3(grid.blocks), kBlock, shared,
                                  dependent_launches<apply_nchw_kernel<T, kBackward>>(), "batch_norm_apply_kernel");
}

template <class T>
Status run(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b, bool channels_last) {
    constexpr int kLanes = Vector16<T>::kLanes;
    const bool backward = p.phase == BatchNormPhase::backward;
    const int channels = static_cast<int>(p.x.dims[1]);
    const int64_t images = p.x.dims[0], spatial = p.x.element_count() / (images * channels);
    StatsArgs s{};
    s.x = b.x;
    s.dy = b.dy;
    s.channels = channels;
    s.backward = backward;
    s.mean = static_cast<const float *>(b.mean);
    s.inv_std = static_cast<const float *>(b.variance);
    dim3 stats_grid;
    const bool plane_vectors = !channels_last && spatial % kLanes == 0;
    // LIBREDNN_BN_SMALL_PLANES=0 keeps such planes on stats_nchw_kernel (to compare the two).
    static const bool small_planes_off = switched_off("LIBREDNN_BN_SMALL_PLANES");
    const bool small_planes =
        !channels_last && !plane_vectors && !backward && spatial <= kSmallPlane && !small_planes_off;
    const bool small_chunks = plane_vectors && spatial / kLanes <= kSmallChunkVectors;
    if (plane_vectors) {
        const int chunk = small_chunks ? kSmallChunkVectors : kPlaneChunkVectors;
        s.planes_or_rows = images * channels;
        s.vectors_per_plane_or_row = spatial / kLanes;
        s.chunks_per_plane = static_cast<int>((s.vectors_per_plane_or_row + chunk - 1) / chunk);
        s.parts = images * s.chunks_per_plane;
        // Warps loop over the chunks: two waves of the blocks the SMs hold at most.
        static const ResidentBlocks small_resident(
            reinterpret_cast<const void *>(stats_nchw_planes_kernel<T, kSmallChunkVectors / 32>), kBlock);
        static const ResidentBlocks large_resident(
            reinterpret_cast<const void *>(stats_nchw_planes_kernel<T, kPlaneChunkVectors / 32>), kBlock);
        stats_grid = dim3(static_cast<unsigned>(grid_size(small_chunks ? small_resident : large_resident,
                                                          s.planes_or_rows * s.chunks_per_plane, kWarpsPerBlock, 2)));
    } else if (small_planes) {
        // Blocks of 16 channels x a range of images, about kStatsBlocks in all, at least a batch of 8 images each.
        s.planes_or_rows = images;
        s.spatial = make_fast_divisor(spatial);
        const int64_t tiles = (channels + kPlaneChannels - 1) / kPlaneChannels;
        int64_t splits = (kStatsBlocks + tiles - 1) / tiles;
        const int64_t most = (images + kPlaneImages - 1) / kPlaneImages;
        if (splits > most) splits = most;
        if (splits < 1) splits = 1;
        s.values_per_split = (images + splits - 1) / splits;  // images a split
        s.values_per_split = (s.values_per_split + kPlaneImages - 1) / kPlaneImages * kPlaneImages;
        splits = (images + s.values_per_split - 1) / s.values_per_split;
        s.parts = splits;
        s.small_plane_vectors = channels % kPlaneChannels == 0 && (channels * spatial) % kLanes == 0 &&
                                reinterpret_cast<uintptr_t>(b.x) % 16 == 0;
        stats_grid = dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(splits));
    } else if (!channels_last) {
        s.planes_or_rows = images;
        s.spatial = make_fast_divisor(spatial);
        const int64_t count = images * spatial;
        int64_t splits = (kStatsBlocks + channels - 1) / channels;
        const int64_t per_block = static_cast<int64_t>(kRoundsPerBlock) * 8 * kBlock;
        if (splits < (count + per_block - 1) / per_block) splits = (count + per_block - 1) / per_block;
        const int64_t most = (count + 8 * kBlock - 1) / (8 * kBlock);  // a round of 8 loads a thread at least
        if (splits > most) splits = most;
        if (splits < 1) splits = 1;
        s.values_per_split = (count + splits - 1) / splits;
        splits = (count + s.values_per_split - 1) / s.values_per_split;
        s.parts = splits;
        stats_grid = dim3(static_cast<unsigned>(channels), static_cast<unsigned>(splits));
    } else {
        s.planes_or_rows = images * spatial;
        s.vectors_per_plane_or_row = channels / kLanes;
        int tile = 16;
        while (s.vectors_per_plane_or_row % tile != 0) tile /= 2;
        s.tile_vectors = tile;
        s.tile_rows = kBlock / tile;
        const int64_t tiles = s.vectors_per_plane_or_row / tile;
        // Whole waves of the blocks an SM holds (its registers allow few), no block over kRoundsPerBlock rounds.
        static const ResidentBlocks forward_resident(reinterpret_cast<const void *>(stats_nhwc_kernel<T, false>),
                                                     kBlock);
        static const ResidentBlocks backward_resident(reinterpret_cast<const void *>(stats_nhwc_kernel<T, true>),
                                                      kBlock);
        const ResidentBlocks &resident = backward ? backward_resident : forward_resident;
        const int64_t wave = int64_t{current_device_limits().sm_count} * resident.per_sm();
        const int64_t per_block = static_cast<int64_t>(kRoundsPerBlock) * 8 * s.tile_rows;
        const int64_t needed = tiles * ((s.planes_or_rows + per_block - 1) / per_block);
        int64_t splits = (needed + wave - 1) / wave * wave / tiles;
        const int64_t most =
            (s.planes_or_rows + 8 * s.tile_rows - 1) / (8 * s.tile_rows);  // a round of 8 rows a thread at least
        if (splits > most) splits = most;
        if (splits < 1) splits = 1;
        s.rows_per_split = (s.planes_or_rows + splits - 1) / splits;
        splits = (s.planes_or_rows + s.rows_per_split - 1) / s.rows_per_split;
        s.parts = splits;
        stats_grid = dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(splits));
    }
    const size_t part_bytes = static_cast<size_t>(channels) * static_cast<size_t>(s.parts) * sizeof(float);
    const size_t constant_bytes = 5 * static_cast<size_t>(channels) * sizeof(float);
    void *scratch = nullptr;
    const size_t scratch_bytes = 3 * part_bytes + constant_bytes;
    const cudaError_t err = LIBREDNN_CUDA_SITE(device_allocation, cudaMallocAsync(&scratch, scratch_bytes, stream));
    if (err != cudaSuccess) {
        return cuda_failure(err, "allocating the %zu bytes of batch-norm partial statistics", scratch_bytes);
    }
    auto *base = static_cast<float *>(scratch);
    s.part0 = base;
    s.part1 = base + part_bytes / sizeof(float);
    s.part2 = base + 2 * (part_bytes / sizeof(float));
    float *constants = base + 3 * (part_bytes / sizeof(float));
    Status status = CUDNN_STATUS_SUCCESS;
    if (!channels_last) {
        if (small_chunks) {
            stats_nchw_planes_kernel<T, kSmallChunkVectors / 32><<<stats_grid, kBlock, 0, stream>>>(s);
        } else if (plane_vectors) {
            stats_nchw_planes_kernel<T, kPlaneChunkVectors / 32><<<stats_grid, kBlock, 0, stream>>>(s);
        } else if (small_planes) {
            stats_nchw_small_planes_kernel<T><<<stats_grid, kSmallPlaneBlock, 0, stream>>>(s);
        } else {
            stats_nchw_kernel<T, 1><<<stats_grid, kBlock, 0, stream>>>(s);
        }
    } else {
        if (backward) {
            stats_nhwc_kernel<T, true><<<stats_grid, kBlock, 0, stream>>>(s);
        } else {
            stats_nhwc_kernel<T, false><<<stats_grid, kBlock, 0, stream>>>(s);
        }
    }
    status = check_launch("batch_norm_stats_kernel");
    if (status == CUDNN_STATUS_SUCCESS) {
        MergeArgs m{};
        m.parts = s.parts;
        m.count = static_cast<double>(images * spatial);
        m.backward = backward;
        m.results = channel_results(p, b);
        m.part0 = s.part0;
        m.part1 = s.part1;
        m.part2 = s.part2;
        m.constants = constants;
        m.channels = channels;
        if (s.parts <= kWarpMergeParts) {
            const dim3 grid((channels + kMergeBlock / 32 - 1) / (kMergeBlock / 32));
            status = launch_maybe_dependent(stream, merge_warp_kernel, m, grid, kMergeBlock, 0,
                                            dependent_launches<merge_warp_kernel>(), "batch_norm_merge_kernel");
        } else {
            status = launch_maybe_dependent(stream, merge_kernel, m, dim3(channels), kMergeBlock, 0,
                                            dependent_launches<merge_kernel>(), "batch_norm_merge_kernel");
        }
    }
    if (status == CUDNN_STATUS_SUCCESS) {
        // NCHW planes that are not whole vectors: vectors whose lanes each find their channel, or one element
        // a thread ("vectors" of one) where the tensor is not whole vectors either.
        const bool partial_planes = !channels_last && spatial % kLanes != 0;
        // (Vectors meet at most two planes where a plane is at least a vector long.)
        const bool scalar = partial_planes && (p.x.element_count() % kLanes != 0 || spatial < kLanes);
        const int lanes = scalar ? 1 : kLanes;
        ApplyArgs a{};
        a.vectors = p.x.element_count() / lanes;
        a.lane_channels = partial_planes && !scalar;
        a.spatial_vectors = make_fast_divisor(channels_last ? 1 : (partial_planes ? spatial : spatial / lanes));
        a.spatial = make_fast_divisor(spatial);
        a.channel_vectors = make_fast_divisor(channels_last ? channels / kLanes : 1);
        a.channel_count = make_fast_divisor(channels);
        a.channels = channels;
        a.backward = backward;
        a.alpha = static_cast<float>(p.alpha);
        a.beta = static_cast<float>(p.beta);
        a.x = b.x;
        a.dy = b.dy;
        a.out = b.result;
        a.constants = constants;
        if (scalar) {
            apply_scalar_kernel<T><<<grid_size(a.vectors, kBlock, kBlock, 4), kBlock, 0, stream>>>(a);
            status = check_launch("batch_norm_apply_kernel");
        } else if (backward) {
            status = launch_apply<T, true>(stream, a, channels_last, p.x.element_count());
        } else {
            status = launch_apply<T, false>(stream, a, channels_last, p.x.element_count());
        }
    }
    cudaFreeAsync(scratch, stream);
    return status;
}

}  // namespace

bool packed_training_applicable(const BatchNormProblem &p, const BatchNormBuffers &b, bool *channels_last_out) {
    if (p.phase == BatchNormPhase::inference || p.per_activation() || p.activation()) return false;
    if (p.phase == BatchNormPhase::backward && !p.saved) return false;  // the statistics would need a pass more
    if (p.x.dtype != CUDNN_DATA_FLOAT && p.x.dtype != CUDNN_DATA_HALF && p.x.dtype != CUDNN_DATA_BFLOAT16) return false;
    if (p.x.vector() != 1 || p.x.nb_dims < 3 || p.x.dims[1] > kMaxChannels) return false;
    if (p.parameters.strides[1] != 1 && p.x.dims[1] > 1) return false;
    if (!aligned16_host(b.x) || !aligned16_host(b.result) || !aligned16_host(b.dy)) return false;
    bool channels_last = false;
    if (!layout_of(p, &channels_last)) return false;
    const int64_t lanes = 16 / static_cast<int64_t>(data_type_size(p.x.dtype));
    const int64_t channels = p.x.dims[1];
    if (p.x.element_count() / channels >= (int64_t{1} << 31)) return false;
    if (channels_last && channels % lanes != 0) return false;  // NCHW: any plane size (whole vectors or one at a time)
    *channels_last_out = channels_last;
    return true;
}

Status batch_norm_packed_training(cudaStream_t stream, const BatchNormProblem &p, const BatchNormBuffers &b,
                                  bool channels_last) {
    switch (p.x.dtype) {
        case CUDNN_DATA_HALF: return run<__half>(stream, p, b, channels_last);
        case CUDNN_DATA_BFLOAT16: return run<__nv_bfloat16>(stream, p, b, channels_last);
        default: return run<float>(stream, p, b, channels_last);
    }
}

}  // namespace librednn::cuda
