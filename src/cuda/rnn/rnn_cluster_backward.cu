// The cluster kernel of the CUDA RNN's backward-data recurrence (rnn_cluster_backward.hpp).
#include "core/logging.hpp"
#include "cuda/common/async_copy.cuh"
#include "cuda/common/cluster.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_cell_backward.cuh"
#include "cuda/rnn/rnn_cluster_backward.hpp"
#include "cuda/rnn/rnn_persistent.hpp"

#include <cooperative_groups.h>

#include <string>

namespace librednn::cuda {

namespace {

namespace cg = cooperative_groups;

constexpr int kWarps = 8, kThreads = kWarps * 32;
constexpr int kRows = 64;  // sequences a product takes: four m16 tiles (rows past the batch are not used)
// The gate gradients stream through kStages buffers of kChunkK terms of the block's slice (two chunks in flight
// while one multiplies), each row padded by 16 floats so that the eight rows a 16-byte fragment read touches fall on
// different banks.
constexpr int kChunkK = 64, kPitch = kChunkK + 16, kChunkQuads = kChunkK / 4, kStages = 3;
constexpr size_t kTileBytes = kStages * kRows * kPitch * sizeof(float);

// A block's slice of gates x hidden: the terms rounded up to whole 16-term steps.
int slice_terms(int gH) { return (gH + kRnnClusterBlocks * 16 - 1) / (kRnnClusterBlocks * 16) * 16; }

// The n8 tiles of units a cluster takes: 4 (32 units) up to hidden 480, else 9 (72 units): at most 15 clusters up
// to hidden 1080, as many as the H200 holds at once (clusters of 8 blocks of one an SM; a GPC holds two, some one).
int cluster_tiles(int hidden) { return hidden <= 15 * 32 ? 4 : 9; }

size_t shared_bytes(int tiles, int slice) {
    return static_cast<size_t>(slice) * 8 * tiles * sizeof(float) + kTileBytes +
           static_cast<size_t>(kRows) * (8 * tiles + 4) * sizeof(float);
}

template <class T>
struct ClusterBackward {
    CellBackward<T, float> cell;
    const float *recurrent;  // [gates * H][H]
    const float *pre_h;      // the GRU's R_h h + b_Rh of every step [T][N][H], else NULL
    float *exchange;         // [2][kRows][pitch]: the steps' recurrent gate gradients rounded to TF32, alternating
    int pitch;               // kRnnClusterBlocks * slice
    int slice;               // a block's terms of gates x hidden
    int steps;
    int want_dhx;
};

// Block `rank` of a cluster multiplies rows 0 .. kRows - 1 of the gate gradients in `grads` (row n at n * pitch,
// rows past N reading row N - 1), terms [rank * slice, (rank + 1) * slice), by its slice of R (staged as the mma's B
// fragments in `frags`), into partial[n][j] for the cluster's 8 kTiles units j. Warps: two halves of each chunk's
// 16-term steps, each half four warps of one m16 tile (16 rows) by the kTiles n8 tiles; the halves' sums meet in
// `partial` in a fixed order. A lane reads 16 terms of a row as one 16-byte load: the mma's k t and t + 4 of the
// first 8-term step are the stored terms 4t and 4t + 1, of the second 4t + 2 and 4t + 3 (R's fragments likewise).
template <int kTiles>
__device__ __forceinline__ void slice_product(const float *grads, int N, int pitch, int k0, int slice,
                                              const float4 *frags, float *tiles, float *partial) {
    constexpr int kPartialPitch = kTiles * 8 + 4;
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, lane = tid % 32, g = lane / 4, t4 = lane % 4;
    const int half = warp / 4, wm = warp % 4;
    float acc[kTiles][4];
#pragma unroll
    for (int j = 0; j < kTiles; ++j)
#pragma unroll
        for (int e = 0; e < 4; ++e) acc[j][e] = 0.0f;
    const auto load_chunk = [&](int c) {
        float *tile = tiles + (c % kStages) * kRows * kPitch;
        const int terms = min(kChunkK, slice - c * kChunkK);
        for (int e = tid; e < kRows * kChunkQuads; e += kThreads) {
            const int row = e / kChunkQuads, q = e % kChunkQuads;
            if (4 * q < terms)
                async_copy16(tile + row * kPitch + 4 * q,
                             grads + static_cast<int64_t>(min(row, N - 1)) * pitch + k0 + c * kChunkK + 4 * q);
        }
        async_copy_commit();
    };
    const int chunks = (slice + kChunkK - 1) / kChunkK;
    for (int c = 0; c < kStages - 1; ++c) {
        if (c < chunks)
            load_chunk(c);
        else
            async_copy_commit();
    }
    for (int c = 0; c < chunks; ++c) {
        // Chunk c + kStages - 1 into the buffer chunk c - 1 left (every thread was done with it at the barrier that
        // ended the last pass); an empty group past the last chunk keeps the count, so that the wait leaves chunk c
        // landed.
        if (c + kStages - 1 < chunks)
            load_chunk(c + kStages - 1);
        else
            async_copy_commit();
        async_copy_wait_groups<kStages - 1>();
        __syncthreads();
        const float *tile = tiles + (c % kStages) * kRows * kPitch;
        const int steps16 = min(kChunkK, slice - c * kChunkK) / 16, first_half = (steps16 + 1) / 2;
        const int begin = half == 0 ? 0 : first_half, end = half == 0 ? first_half : steps16;
        for (int sl = begin; sl < end; ++sl) {
            const float *row = tile + (wm * 16 + g) * kPitch + 16 * sl + 4 * t4;
            const float4 lo = *reinterpret_cast<const float4 *>(row),
                         hi = *reinterpret_cast<const float4 *>(row + 8 * kPitch);
            const float4 *b = frags + (c * (kChunkK / 16) + sl) * kTiles * 32 + lane;
#pragma unroll
            for (int j = 0; j < kTiles; ++j) {
                const float4 r = b[j * 32];
                mma_tf32_m16n8k8(acc[j], __float_as_uint(lo.x), __float_as_uint(hi.x), __float_as_uint(lo.y),
                                 __float_as_uint(hi.y), __float_as_uint(r.x), __float_as_uint(r.y));
                mma_tf32_m16n8k8(acc[j], __float_as_uint(lo.z), __float_as_uint(hi.z), __float_as_uint(lo.w),
                                 __float_as_uint(hi.w), __float_as_uint(r.z), __float_as_uint(r.w));
            }
        }
        __syncthreads();
    }
    // The second half's sums, then the first half's added to them.
    for (int pass = 1; pass >= 0; --pass) {
        if (half == pass) {
#pragma unroll
            for (int j = 0; j < kTiles; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e) {
                    float &to = partial[(wm * 16 + g + (e >= 2 ? 8 : 0)) * kPartialPitch + j * 8 + 2 * t4 + (e & 1)];
                    to = pass == 1 ? acc[j][e] : to + acc[j][e];
                }
        }
        __syncthreads();
    }
}

// Cluster c takes units [c kUnits, (c + 1) kUnits); its block `rank` the terms [rank slice, (rank + 1) slice) of
// gates x hidden for the products, and the cells of units c kUnits + rank kCellUnits + u, u < kCellUnits, of every
// sequence: item e of a thread is unit e % kCellUnits of sequence e / kCellUnits (e = thread + k x the threads).
// Step k (s = steps - 1 - k): the product of the step after's gate gradients (none before the first), its parts
// added over the cluster; the cells; the grid-wide barrier. After the last step, where dhx is wanted, one more
// product gives the gradient reaching hx.
template <class T, int kTiles>
__global__ void __launch_bounds__(kThreads, 1) cluster_backward_kernel(const __grid_constant__ ClusterBackward<T> a) {
    constexpr int kUnits = 8 * kTiles, kCellUnits = kUnits / kRnnClusterBlocks, kPartialPitch = kUnits + 4;
    constexpr int kItems = (kCellUnits * kRows + kThreads - 1) / kThreads;
    extern __shared__ float4 shared[];
    const CellBackward<T, float> &cell = a.cell;
    const int H = cell.H, N = cell.N, gates = rnn_cell_gates(cell.cell), gH = gates * H;
    const int tid = static_cast<int>(threadIdx.x);
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = static_cast<int>(cluster.block_rank());
    const int unit0 = static_cast<int>(blockIdx.x) / kRnnClusterBlocks * kUnits, k0 = rank * a.slice;
    float4 *frags = shared;                                                        // [slice / 16][kTiles][32]
    float *tiles = reinterpret_cast<float *>(frags + a.slice / 16 * kTiles * 32);  // [kStages][kRows][kPitch]
    float *partial = tiles + kStages * kRows * kPitch;                             // [kRows][kPartialPitch]

    // The block's slice of R as B fragments: float4 (step * kTiles + tile) * 32 + lane (lane 4 g + t) holds column
    // 8 tile + g at the step's terms 4t .. 4t + 3; zeros past gates x hidden and past the units. Eight loads of a
    // thread in flight at once (one after another they took about a microsecond each).
    constexpr int kBatch = 8;
    const int elements = a.slice * kUnits;
    for (int e0 = tid; e0 < elements; e0 += kBatch * kThreads) {
        float v[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int e = e0 + b * kThreads, kl = e / kUnits, k = k0 + kl, unit = unit0 + e % kUnits;
            v[b] = e < elements && k < gH && unit < H ? __ldg(a.recurrent + static_cast<int64_t>(k) * H + unit) : 0.0f;
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int e = e0 + b * kThreads, kl = e / kUnits, j = e % kUnits;
            if (e >= elements) break;
            const int lane = (j % 8) * 4 + (kl % 16) / 4;
            reinterpret_cast<float *>(frags + ((kl / 16) * kTiles + j / 8) * 32 + lane)[kl % 4] = tf32_rounded(v[b]);
        }
    }
    // The exchange's padding terms of this slice (past gates x hidden) are zeros in both buffers: read by the products,
    // never written by a cell. (Every cluster's block of this rank writes the same zeros.)
    const int padding = max(0, min(a.slice, k0 + a.slice - gH)), first_padding = a.slice - padding;
    for (int e = tid; e < 2 * kRows * padding; e += kThreads)
        a.exchange[static_cast<int64_t>(e / padding) * a.pitch + k0 + first_padding + e % padding] = 0.0f;
    __syncthreads();

    for (int k = 0; k <= a.steps; ++k) {
        const int s = a.steps - 1 - k;
        // What the step's cells read, loaded before the product so that their latency (the reserve space comes from
        // memory) hides behind it.
        CellBackwardInputs<float> inputs[kItems];
        float dout[kItems], h_prev[kItems], pre_h[kItems];
        int time[kItems];
#pragma unroll
        for (int it = 0; it < kItems; ++it) {
            const int e = tid + it * kThreads, n = e / kCellUnits, i = unit0 + rank * kCellUnits + e % kCellUnits;
            time[it] = -1;
            if (k == a.steps || n >= N || i >= H) continue;
            const int t = rnn_step_time(cell.lengths, n, cell.dir, s);
            time[it] = t;
            if (t < 0) continue;
            const int64_t row = static_cast<int64_t>(t) * N + n;
            inputs[it] = rnn_cell_backward_inputs(cell, n, i, s, t);
            dout[it] = cell.dout[row * cell.out_row + static_cast<int64_t>(cell.dir) * cell.P + i];
            const bool gru = cell.cell == CUDNN_GRU;
            h_prev[it] = gru ? rnn_previous_h(cell, n, i, t, s == 0) : 0.0f;
            pre_h[it] = gru ? a.pre_h[row * H + i] : 0.0f;
        }
        float after[kItems] = {};  // R^T times the step after's gate gradients, for the block's items
        if (k > 0 && (k < a.steps || a.want_dhx)) {
            const float *grads = a.exchange + static_cast<int64_t>((k - 1) % 2) * kRows * a.pitch;
            slice_product<kTiles>(grads, N, a.pitch, k0, a.slice, frags, tiles, partial);
            cluster_arrive();  // every block's part written
            cluster_wait();
#pragma unroll
            for (int it = 0; it < kItems; ++it) {
                const int e = tid + it * kThreads, n = e / kCellUnits, u = rank * kCellUnits + e % kCellUnits;
                float sum = 0.0f;
                if (n < kRows) {
                    for (int r = 0; r < kRnnClusterBlocks; ++r)
                        sum += cluster.map_shared_rank(partial, r)[n * kPartialPitch + u];
                }
                after[it] = sum;
            }
        }
        if (k == a.steps) {
            if (a.want_dhx) {
#pragma unroll
                for (int it = 0; it < kItems; ++it) {
                    const int e = tid + it * kThreads, n = e / kCellUnits,
                              i = unit0 + rank * kCellUnits + e % kCellUnits;
                    if (n >= N || i >= H || cell.lengths[n] <= 0) continue;  // no step: dh is still dhy
                    float *st = cell.state + n * cell.spn;
                    st[cell.at.dh + i] = after[it] + (cell.cell == CUDNN_GRU ? st[cell.at.z_dh + i] : 0.0f);
                }
            }
            break;
        }
        float *exchange = a.exchange + static_cast<int64_t>(k % 2) * kRows * a.pitch;
#pragma unroll
        for (int it = 0; it < kItems; ++it) {
            const int e = tid + it * kThreads, n = e / kCellUnits, i = unit0 + rank * kCellUnits + e % kCellUnits;
            if (n >= N || i >= H) continue;
            float *step_grads = exchange + static_cast<int64_t>(n) * a.pitch;
            const int t = time[it];
            if (t < 0) {
                for (int q = 0; q < gates; ++q) step_grads[q * H + i] = 0.0f;  // read by the products
                continue;
            }
            float *st = cell.state + n * cell.spn;
            const float dh =
                (s + 1 < cell.lengths[n] ? after[it] + (cell.cell == CUDNN_GRU ? st[cell.at.z_dh + i] : 0.0f)
                                         : st[cell.at.dh + i]) +
                dout[it];
            rnn_cell_backward_unit_from(cell, n, i, t, dh, step_grads, h_prev[it], pre_h[it], inputs[it],
                                        [](float value) { return tf32_rounded(value); });
        }
        // Every block's gate gradients of step s written and visible before any product reads them (copied with
        // cp.async.cg, from L2). A block's `partial` is written again only after this barrier, by which time the
        // cluster's blocks have read it.
        cg::this_grid().sync();
    }
    cluster_arrive();  // the other blocks may still read this block's `partial`
    cluster_wait();
}

template <class T, int kTiles>
const void *kernel_for() {
    return reinterpret_cast<const void *>(cluster_backward_kernel<T, kTiles>);
}

template <class T>
const void *kernel_for(int tiles) {
    return tiles == 9 ? kernel_for<T, 9>() : kernel_for<T, 4>();
}

template <class T>
const SharedMemoryOptIn &opt_in_for(int tiles) {
    static const SharedMemoryOptIn nine(kernel_for<T, 9>()), four(kernel_for<T, 4>());
    return tiles == 9 ? nine : four;
}

bool switched_on() {
    static const bool on = !switched_off("LIBREDNN_RNN_CLUSTER_STEP");
    return on;
}

cudaLaunchConfig_t launch_config(cudaStream_t stream, int clusters, size_t bytes, cudaLaunchAttribute (&attributes)[2],
                                 bool cooperative) {
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(static_cast<unsigned>(clusters * kRnnClusterBlocks));
    config.blockDim = dim3(kThreads);
    config.dynamicSmemBytes = bytes;
    config.stream = stream;
    attributes[0].id = cudaLaunchAttributeClusterDimension;
    attributes[0].val.clusterDim.x = kRnnClusterBlocks;
    attributes[0].val.clusterDim.y = 1;
    attributes[0].val.clusterDim.z = 1;
    attributes[1].id = cudaLaunchAttributeCooperative;
    attributes[1].val.cooperative = 1;
    config.attrs = attributes;
    config.numAttrs = cooperative ? 2 : 1;
    return config;
}

// Whether every cluster of the launch can be resident at once (asked each call; no sticky error left).
bool clusters_fit(const void *kernel, int clusters, size_t bytes) {
    cudaLaunchAttribute attributes[2];
    const cudaLaunchConfig_t config = launch_config(nullptr, clusters, bytes, attributes, false);
    int resident = 0;
    if (cudaOccupancyMaxActiveClusters(&resident, kernel, &config) != cudaSuccess) {
        cudaGetLastError();
        return false;
    }
    return resident >= clusters;
}

template <class T>
const char *declines(const RnnProblem &p, int64_t exchange_elements) {
    static_assert(kRnnPersistentMaxBatch == 16 && kRows == 64, "the sentences below");
    const RnnNetwork &net = p.net;
    const int H = net.hidden_size, tiles = cluster_tiles(H), slice = slice_terms(net.gates() * H);
    const int clusters = (H + 8 * tiles - 1) / (8 * tiles);
    const size_t bytes = shared_bytes(tiles, slice);
    if (!switched_on()) return "switched off by LIBREDNN_RNN_CLUSTER_STEP=0";
    if (!rnn_persistent_switched_on()) return "switched off by LIBREDNN_RNN_PERSISTENT=0";
    if (rnn_compute_type(net) != CUDNN_DATA_FLOAT) return "it computes in float only";
    if (net.math_type == CUDNN_FMA_MATH) return "it multiplies on TF32 tensor cores, which CUDNN_FMA_MATH rules out";
    if (net.projection()) return "it takes no projection";
    if (p.batch_size <= kRnnPersistentMaxBatch || p.batch_size > kRows) return "it takes batches of 17 to 64 sequences";
    if (exchange_elements < rnn_cluster_backward_exchange_elements(net))
        return "the workspace's split piece cannot hold two steps' gate gradients";
    const DeviceLimits limits = current_device_limits();
    if (limits.compute_major < 9 || !limits.cooperative_launch || !built_for_sm90(kernel_for<T>(tiles)))
        return "it needs sm_90 clusters and cooperative launches";
    if (!opt_in_for<T>(tiles).allow(bytes)) return "a block's slice of R does not fit its shared memory";
    if (!clusters_fit(kernel_for<T>(tiles), clusters, bytes)) return "the device cannot hold every cluster at once";
    return nullptr;
}

template <class T>
Status launch(cudaStream_t stream, const CellBackward<T, float> &cell, const float *recurrent, const float *pre_h,
              float *exchange, int steps, bool want_dhx, bool *launched) {
    *launched = false;
    if (steps <= 0) {
        *launched = true;
        return CUDNN_STATUS_SUCCESS;
    }
    const int gH = rnn_cell_gates(cell.cell) * cell.H, tiles = cluster_tiles(cell.H);
    ClusterBackward<T> a;
    a.cell = cell, a.recurrent = recurrent, a.pre_h = pre_h, a.exchange = exchange, a.steps = steps;
    a.slice = slice_terms(gH), a.pitch = kRnnClusterBlocks * a.slice, a.want_dhx = want_dhx ? 1 : 0;
    const size_t bytes = shared_bytes(tiles, a.slice);
    if (!opt_in_for<T>(tiles).allow(bytes)) return CUDNN_STATUS_SUCCESS;
    const int clusters = (cell.H + 8 * tiles - 1) / (8 * tiles);
    cudaLaunchAttribute attributes[2];
    const cudaLaunchConfig_t config = launch_config(stream, clusters, bytes, attributes, true);
    const cudaError_t error = tiles == 9 ? cudaLaunchKernelEx(&config, cluster_backward_kernel<T, 9>, a)
                                         : cudaLaunchKernelEx(&config, cluster_backward_kernel<T, 4>, a);
    if (error != cudaSuccess) {
        cudaGetLastError();  // a refused launch leaves no sticky error: the caller takes the split product
        log_info(std::string("the RNN backward-data cluster launch was refused (") + cudaGetErrorString(error) +
                 "); the split product runs");
        return CUDNN_STATUS_SUCCESS;
    }
    *launched = true;
    return check_launch("cluster_backward_kernel");
}

}  // namespace

int64_t rnn_cluster_backward_exchange_elements(const RnnNetwork &net) {
    return int64_t{2} * kRows * kRnnClusterBlocks * slice_terms(net.gates() * net.hidden_size);
}

bool rnn_cluster_backward_applies(const RnnProblem &p, int64_t exchange_elements, const char **reason) {
    const char *why = p.net.data_type == CUDNN_DATA_HALF ? declines<__half>(p, exchange_elements)
                                                         : declines<float>(p, exchange_elements);
    if (why != nullptr && reason != nullptr) *reason = why;
    return why == nullptr;
}

Status rnn_cluster_backward_data(cudaStream_t stream, const CellBackward<__half, float> &cell, const float *recurrent,
                                 const float *pre_h, float *exchange, int steps, bool want_dhx, bool *launched) {
    return launch<__half>(stream, cell, recurrent, pre_h, exchange, steps, want_dhx, launched);
}

Status rnn_cluster_backward_data(cudaStream_t stream, const CellBackward<float, float> &cell, const float *recurrent,
                                 const float *pre_h, float *exchange, int steps, bool want_dhx, bool *launched) {
    return launch<float>(stream, cell, recurrent, pre_h, exchange, steps, want_dhx, launched);
}

}  // namespace librednn::cuda
