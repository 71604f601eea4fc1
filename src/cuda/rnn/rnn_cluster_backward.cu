// The cluster kernel of the CUDA RNN's backward-data recurrence (rnn_cluster_backward.hpp), its products on
// Hopper's warpgroup MMA (sm_90a).
#include "cuda/rnn/rnn_cluster_backward.hpp"

#include "core/logging.hpp"
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_cell_backward.cuh"
#include "cuda/rnn/rnn_persistent.hpp"

#if LIBREDNN_BUILD_SM90A
#include "cuda/common/async_copy.cuh"
#include "cuda/common/cluster.cuh"
#include "cuda/common/mma_tf32.cuh"
#include "cuda/common/wgmma.cuh"

#include <cooperative_groups.h>
#endif

#include <string>

namespace librednn::cuda {

namespace {

// A block's slice of gates x hidden: the terms rounded up to whole 32-term blocks (128-byte rows of wgmma's
// operands).
int slice_terms(int gH) { return (gH + kRnnClusterBlocks * 32 - 1) / (kRnnClusterBlocks * 32) * 32; }

}  // namespace

int64_t rnn_cluster_backward_exchange_elements(const RnnNetwork &net) {
    return int64_t{2} * 64 * kRnnClusterBlocks * slice_terms(net.gates() * net.hidden_size);
}

#if LIBREDNN_BUILD_SM90A

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "rnn_cluster_backward.cu compiles for sm_90a only (src/CMakeLists.txt)"
#endif

namespace {

namespace cg = cooperative_groups;

constexpr int kWarps = 8, kThreads = kWarps * 32;
constexpr int kRows = 64;  // sequences a product takes: wgmma's 64 rows (rows past the batch are not used)
// The gate gradients stream through kStages stages of kChunkK terms of the block's slice, two 32-term blocks (one for
// each warpgroup), stored as wgmma reads them; chunks c + 1 and c + 2 in flight while chunk c multiplies.
constexpr int kBlockK = 32, kChunkK = 2 * kBlockK, kStages = 4, kStageFloats = kRows * kChunkK;
constexpr size_t kStagesBytes = kStages * kStageFloats * sizeof(float);

// The n8 tiles of units a cluster takes: 4 (32 units) up to hidden 480, else 9 (72 units): at most 15 clusters up
// to hidden 1080, as many as the H200 holds at once (clusters of 8 blocks of one an SM; a GPC holds two, some one).
int cluster_tiles(int hidden) { return hidden <= 15 * 32 ? 4 : 9; }

// R's slice, then the stages (the partial sums take the stages' room once the product is done); 1024 bytes to
// align the swizzled operands.
size_t shared_bytes(int tiles, int slice) {
    static_assert(kRows * (8 * 9 + 4) * sizeof(float) <= kStagesBytes, "the partial sums fit the stages");
    return static_cast<size_t>(slice) * 8 * tiles * sizeof(float) + kStagesBytes + 1024;
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
// rows past N reading row N - 1), terms [k0, k0 + slice), by its slice of R (`rows`: wgmma's B operand, the
// cluster's kUnits units by the slice's terms in 32-term blocks), into partial[n][j] (pitch kUnits + 4, in the
// stages' room). Warpgroup w multiplies the w-th 32-term block of each chunk (wgmma m64nNk8 from shared memory); the
// second warpgroup's sums, then the first's added to them, meet in `partial` in a fixed order.
template <int kUnits>
__device__ __forceinline__ void slice_product(const float *grads, int N, int pitch, int k0, int slice,
                                              const float *rows, float *stages, float *partial) {
    constexpr int kPartialPitch = kUnits + 4;
    const int tid = static_cast<int>(threadIdx.x), warpgroup = tid / 128, warp = (tid % 128) / 32;
    const int lane = tid % 32, g = lane / 4, t = lane % 4;
    // This thread's copies of a chunk: 16-byte piece `piece` (float 4 (piece mod 8) of 32-term block piece / 8) of
    // rows row0 + 16 i, i < 4.
    const int piece = tid % 16, row0 = tid / 16;
    const float *sources[4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
        sources[i] = grads + static_cast<int64_t>(min(row0 + 16 * i, N - 1)) * pitch + k0 + 4 * piece;
    const int chunks = (slice + kChunkK - 1) / kChunkK;
    const auto blocks_of = [&](int c) { return min(2, (slice - c * kChunkK) / kBlockK); };
    const auto load_chunk = [&](int c) {
        if (c < chunks && piece / 8 < blocks_of(c)) {
            float *stage = stages + (c % kStages) * kStageFloats + (piece / 8) * kRows * kBlockK;
#pragma unroll
            for (int i = 0; i < 4; ++i)
                async_copy16(stage + wgmma_swizzled(row0 + 16 * i, piece % 8), sources[i] + c * kChunkK);
        }
        async_copy_commit();  // an empty group past the last chunk keeps the count
    };
    float acc[kUnits / 2];
#pragma unroll
    for (int e = 0; e < kUnits / 2; ++e) acc[e] = 0.0f;
    load_chunk(0);
    load_chunk(1);
    for (int c = 0; c < chunks; ++c) {
        async_copy_wait_groups<1>();  // chunk c landed
        fence_proxy_async();
        // Every thread's copies of chunk c visible; every warpgroup done with chunk c - 2's stage, which chunk c + 2
        // takes.
        __syncthreads();
        load_chunk(c + 2);
        if (warpgroup < blocks_of(c)) {
            const float *ta = stages + (c % kStages) * kStageFloats + warpgroup * kRows * kBlockK;
            const float *tb = rows + (2 * c + warpgroup) * kUnits * kBlockK;
            wgmma_fence();
#pragma unroll
            for (int kk = 0; kk < kBlockK; kk += 8)  // 8 terms are 32 bytes further along the swizzled rows
                wgmma_m64nk8<kUnits>(acc, wgmma_descriptor(ta + kk), wgmma_descriptor(tb + kk), c > 0 || kk > 0);
            wgmma_commit();
            wgmma_wait<1>();  // chunk c - 1's products done: its stage may be refilled after the next barrier
        }
    }
    wgmma_wait<0>();
#pragma unroll
    for (int e = 0; e < kUnits / 2; ++e) wgmma_settle(acc[e]);
    __syncthreads();  // both warpgroups' products have read the stages that `partial` takes
    // Register 4 j + e: sequence 16 warp + g + 8 (e / 2), unit 8 j + 2 t + e mod 2.
    for (int pass = 1; pass >= 0; --pass) {
        if (warpgroup == pass) {
#pragma unroll
            for (int e = 0; e < kUnits / 2; ++e) {
                float &to =
                    partial[(16 * warp + g + 8 * ((e % 4) / 2)) * kPartialPitch + 8 * (e / 4) + 2 * t + (e & 1)];
                to = pass == 1 ? acc[e] : to + acc[e];
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
    extern __shared__ float4 dynamic[];
    const CellBackward<T, float> &cell = a.cell;
    const int H = cell.H, N = cell.N, gates = rnn_cell_gates(cell.cell), gH = gates * H;
    const int tid = static_cast<int>(threadIdx.x);
    cg::cluster_group cluster = cg::this_cluster();
    const int rank = static_cast<int>(cluster.block_rank());
    const int unit0 = static_cast<int>(blockIdx.x) / kRnnClusterBlocks * kUnits, k0 = rank * a.slice;
    float *rows = reinterpret_cast<float *>((reinterpret_cast<uintptr_t>(dynamic) + 1023) / 1024 * 1024);
    float *stages = rows + a.slice * kUnits;  // [kStages][2 blocks][kRows][kBlockK], swizzled
    float *partial = stages;                  // [kRows][kPartialPitch], once a product is done

    // The block's slice of R as wgmma's K-major B operand: unit j's terms kl in 32-term block kl / 32, row j, rounded
    // to TF32; zeros past gates x hidden and past the units. Eight loads of a thread in flight at once (one after
    // another they took about a microsecond each).
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
            rows[(kl / kBlockK) * kUnits * kBlockK + wgmma_swizzled(j, (kl % kBlockK) / 4) + kl % 4] =
                tf32_rounded(v[b]);
        }
    }
    // The exchange's padding terms of this slice (past gates x hidden) are zeros in both buffers: read by the products,
    // never written by a cell. (Every cluster's block of this rank writes the same zeros.)
    const int padding = max(0, min(a.slice, k0 + a.slice - gH)), first_padding = a.slice - padding;
    for (int e = tid; e < 2 * kRows * padding; e += kThreads)
        a.exchange[static_cast<int64_t>(e / padding) * a.pitch + k0 + first_padding + e % padding] = 0.0f;
    fence_proxy_async();  // R's slice, stored by this thread, before the tensor cores read it
    // Each item's sequence length, read once (a step's times then need no load), and the cluster's partial sums as
    // this thread reads them.
    int length[kItems];
#pragma unroll
    for (int it = 0; it < kItems; ++it) {
        const int n = (tid + it * kThreads) / kCellUnits;
        length[it] = n < N ? cell.lengths[n] : 0;
    }
    const float *parts[kRnnClusterBlocks];
#pragma unroll
    for (int r = 0; r < kRnnClusterBlocks; ++r) parts[r] = cluster.map_shared_rank(partial, r);
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
            const int t = s >= length[it] ? -1 : cell.dir == 0 ? s : length[it] - 1 - s;
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
            slice_product<kUnits>(grads, N, a.pitch, k0, a.slice, rows, stages, partial);
            cluster_arrive();  // every block's part written
            cluster_wait();
            // Every rank's part first (the remote loads in flight together), then added in rank order.
            float part[kItems][kRnnClusterBlocks];
#pragma unroll
            for (int it = 0; it < kItems; ++it) {
                const int e = tid + it * kThreads, n = e / kCellUnits, u = rank * kCellUnits + e % kCellUnits;
#pragma unroll
                for (int r = 0; r < kRnnClusterBlocks; ++r)
                    part[it][r] = n < kRows ? parts[r][n * kPartialPitch + u] : 0.0f;
            }
#pragma unroll
            for (int it = 0; it < kItems; ++it) {
                float sum = 0.0f;
#pragma unroll
                for (int r = 0; r < kRnnClusterBlocks; ++r) sum += part[it][r];
                after[it] = sum;
            }
        }
        if (k == a.steps) {
            if (a.want_dhx) {
#pragma unroll
                for (int it = 0; it < kItems; ++it) {
                    const int e = tid + it * kThreads, n = e / kCellUnits,
                              i = unit0 + rank * kCellUnits + e % kCellUnits;
                    if (n >= N || i >= H || length[it] <= 0) continue;  // no step: dh is still dhy
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
            const float dh = (s + 1 < length[it] ? after[it] + (cell.cell == CUDNN_GRU ? st[cell.at.z_dh + i] : 0.0f)
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

#else  // built without sm_90a

bool rnn_cluster_backward_applies(const RnnProblem &, int64_t, const char **reason) {
    if (reason != nullptr) *reason = "this build has no sm_90a kernels (its CUDA architectures do not include 90)";
    return false;
}

Status rnn_cluster_backward_data(cudaStream_t, const CellBackward<__half, float> &, const float *, const float *,
                                 float *, int, bool, bool *launched) {
    *launched = false;
    return CUDNN_STATUS_SUCCESS;
}

Status rnn_cluster_backward_data(cudaStream_t, const CellBackward<float, float> &, const float *, const float *,
                                 float *, int, bool, bool *launched) {
    *launched = false;
    return CUDNN_STATUS_SUCCESS;
}

#endif

}  // namespace librednn::cuda
