// The persistent forward recurrence of the CUDA RNN (rnn_persistent.hpp): one cooperative kernel for all the
// steps of a pseudo-layer, each block holding its units' rows of R in shared memory.
#include "cuda/common/async_copy.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_persistent.hpp"

#include <cooperative_groups.h>

#include <cstdlib>
#include <cstring>

namespace librednn::cuda {

namespace {

constexpr int kThreads = 256, kWarps = kThreads / 32;
constexpr int kChunk = 8;     // rows of R a thread multiplies at once
constexpr int kMaxRows = 32;  // rows of R a block keeps: gates x units
constexpr int kMaxQuads = 2;  // 4-float quads of k a thread takes: k up to kThreads x 4 x kMaxQuads
constexpr int kMaxHidden = kThreads * 4 * kMaxQuads;

struct Persistent {
    CellForward<float> cell;
    const float *recurrent;  // [gates * H][K]
    const float *bias;       // [gates * H] or NULL
    int K, quads;            // k = hidden; quads = ceil(K / 4)
    int units, rows, rows_pad, columns_pad, steps;
    int vector;  // K a multiple of 4 and R, the state and its rows 16-byte aligned: h and R as 16-byte loads
};

// A block's geometry: `units` hidden units (gates x units rows of R, padded to whole chunks) over `blocks` blocks,
// the sequences in passes of the kernel's batch tile, and the dynamic shared memory that takes.
struct Geometry {
    int units = 0, blocks = 0, rows = 0, rows_pad = 0, quads = 0, tile = 1, columns_pad = 0;
    size_t bytes = 0;
};
Geometry geometry(int gates, int H, int N, int sm_count) {
    Geometry g;
    g.units = (H + sm_count - 1) / sm_count;
    g.blocks = (H + g.units - 1) / g.units;
    g.rows = gates * g.units;
    g.rows_pad = (g.rows + kChunk - 1) / kChunk * kChunk;
    g.quads = (H + 3) / 4;
    g.tile = N == 1 ? 1 : 4;
    g.columns_pad = (N + g.tile - 1) / g.tile * g.tile;
    g.bytes = static_cast<size_t>(g.rows_pad) * g.quads * sizeof(float4) +
              static_cast<size_t>(g.rows_pad) * g.columns_pad * kWarps * sizeof(float);
    return g;
}

__device__ __forceinline__ float dot4(const float4 &w, const float4 &h, float sum) {
    sum = fmaf(w.x, h.x, sum), sum = fmaf(w.y, h.y, sum), sum = fmaf(w.z, h.z, sum);
    return fmaf(w.w, h.w, sum);
}

// One level of warp_reduce_scatter: the lanes exchange across bit kOffset; kCount values are still the lane's.
template <int kCount, int kOffset, int V>
__device__ __forceinline__ void reduce_scatter_level(float (&v)[V], int lane, int &first) {
    if constexpr (kOffset >= 1) {
        if constexpr (kCount > 1) {
            constexpr int kHalf = kCount / 2;
            const bool upper = (lane & kOffset) != 0;
#pragma unroll
            for (int i = 0; i < kHalf; ++i) {
                const float send = upper ? v[i] : v[i + kHalf], keep = upper ? v[i + kHalf] : v[i];
                v[i] = keep + __shfl_xor_sync(0xffffffffu, send, kOffset);
            }
            if (upper) first += kHalf;
            reduce_scatter_level<kHalf, kOffset / 2>(v, lane, first);
        } else {
            v[0] += __shfl_xor_sync(0xffffffffu, v[0], kOffset);
            reduce_scatter_level<1, kOffset / 2>(v, lane, first);
        }
    }
}

// Sums v[V] (V a power of two from 2 to 32) over the warp's lanes and leaves each index's total in one lane's
// v[0] (lanes differing only in the lowest log2(32 / V) bits hold the same total). Each level halves the values
// a lane keeps: the lane whose bit `offset` is set keeps the upper half and sends the lower, its partner the
// reverse (31 shuffles where V is 32, instead of 5 each). Returns the index whose total the lane holds. A fixed
// order: the same bits every time.
template <int V>
__device__ __forceinline__ int warp_reduce_scatter(float (&v)[V], int lane) {
    static_assert(V >= 2 && V <= 32 && (V & (V - 1)) == 0, "a power of two up to the warp");
    int first = 0;
    reduce_scatter_level<V, 16>(v, lane, first);
    return first;
}

// Quad q of k of sequence n's h (from `h`, its row in the state), zeros past K.
__device__ __forceinline__ float4 load_h(const Persistent &a, const float *h, int q) {
    if (a.vector) return __ldcg(reinterpret_cast<const float4 *>(h) + q);
    const int k = 4 * q;
    float4 v;
    v.x = __ldcg(h + k);
    v.y = k + 1 < a.K ? __ldcg(h + k + 1) : 0.0f;
    v.z = k + 2 < a.K ? __ldcg(h + k + 2) : 0.0f;
    v.w = k + 3 < a.K ? __ldcg(h + k + 3) : 0.0f;
    return v;
}

// Block b takes units [units b, units (b + 1)): row r of its R is gate r / units of unit units b + r % units. Each
// step:
// - the cell threads (thread u N + n: unit u, sequence n) load what their cell needs besides R h: W x + b_W of
//   their unit at the sequence's time, and h before the step;
// - R h, in passes of kBatch sequences: thread j holds quads j and j + kThreads of k of each sequence's h (read
//   from L2: other blocks wrote it), multiplies them with the same quads of kChunk rows at a time from shared
//   memory, and each warp's sums meet in one lane each (warp_reduce_scatter) and go to shared memory;
// - the cell threads add the warps' sums in order, run the cell, and write the new h;
// - the grid-wide barrier (the next step reads every block's h).
template <int kBatch>
__global__ void __launch_bounds__(kThreads, 1) persistent_forward_kernel(const __grid_constant__ Persistent a) {
    namespace cg = cooperative_groups;
    constexpr int kValues = kChunk * kBatch;
    static_assert(kValues <= 32, "a chunk's sums fit a warp");
    extern __shared__ float4 shared[];
    float4 *rows = shared;                                                    // [rows_pad][quads]
    float *partial = reinterpret_cast<float *>(rows + a.rows_pad * a.quads);  // [rows_pad][columns_pad][kWarps]
    const CellForward<float> &cell = a.cell;
    const int H = cell.H, N = cell.N, K = a.K, Q = a.quads, U = a.units;
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, lane = tid % 32;
    const int unit0 = static_cast<int>(blockIdx.x) * U;
    for (int e = tid; e < a.rows_pad * Q; e += kThreads) {
        const int r = e / Q, q = e % Q;
        if (r >= a.rows) {
            rows[e] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            continue;
        }
        const int unit = min(H - 1, unit0 + r % U);  // a unit past H reads a valid row, unused
        const float *source = a.recurrent + (static_cast<int64_t>(r / U) * H + unit) * K + 4 * q;
        if (a.vector) {
            async_copy16(rows + e, source);
        } else {
            const int k = 4 * q;
            rows[e] = make_float4(source[0], k + 1 < K ? source[1] : 0.0f, k + 2 < K ? source[2] : 0.0f,
                                  k + 3 < K ? source[3] : 0.0f);
        }
    }
    async_copy_wait_all();
    __syncthreads();

    const int gates = rnn_cell_gates(cell.cell);
    const int u = tid / N, n = tid % N, i = unit0 + u;
    const bool cell_thread = u < U && i < H;
    float bias[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int length = 0;
    if (cell_thread) {
        length = cell.lengths[n];
#pragma unroll
        for (int q = 0; q < 4; ++q)
            if (q < gates && a.bias) bias[q] = a.bias[q * H + i];
    }
    const int passes = a.columns_pad / kBatch, chunks = a.rows_pad / kChunk;
    cg::grid_group grid = cg::this_grid();
    for (int s = 0; s < a.steps; ++s) {
        const int64_t h_in = s % 2 == 0 ? cell.at.h : cell.at.h_new, h_out = s % 2 == 0 ? cell.at.h_new : cell.at.h;
        // The cell's other inputs, in flight while R h is computed.
        const int t = cell_thread && s < length ? (cell.dir == 0 ? s : length - 1 - s) : -1;
        float gx[4] = {0.0f, 0.0f, 0.0f, 0.0f}, h_before = 0.0f;
        if (cell_thread) {
            h_before = __ldcg(cell.state + n * cell.spn + h_in + i);
            if (t >= 0) {
                const float *row = cell.gates + (static_cast<int64_t>(t) * N + n) * gates * H + i;
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (q < gates) gx[q] = row[q * H];
            }
        }
        for (int pass = 0; pass < passes; ++pass) {
            float4 h[kMaxQuads][kBatch];
#pragma unroll
            for (int j = 0; j < kMaxQuads; ++j)
#pragma unroll
                for (int c = 0; c < kBatch; ++c) {
                    const int q = tid + j * kThreads, sequence = pass * kBatch + c;
                    h[j][c] = q < Q && sequence < N ? load_h(a, cell.state + sequence * cell.spn + h_in, q)
                                                    : make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                }
            for (int chunk = 0; chunk < chunks; ++chunk) {
                float sums[kValues];
#pragma unroll
                for (int v = 0; v < kValues; ++v) sums[v] = 0.0f;
#pragma unroll
                for (int j = 0; j < kMaxQuads; ++j) {
                    const int q = tid + j * kThreads;
                    if (q < Q) {
#pragma unroll
                        for (int r = 0; r < kChunk; ++r) {
                            const float4 w = rows[(chunk * kChunk + r) * Q + q];
#pragma unroll
                            for (int c = 0; c < kBatch; ++c)
                                sums[r * kBatch + c] = dot4(w, h[j][c], sums[r * kBatch + c]);
                        }
                    }
                }
                const int index = warp_reduce_scatter<kValues>(sums, lane);
                constexpr int kReplicas = 32 / kValues - 1;  // lanes holding the same total: the first writes it
                if ((lane & kReplicas) == 0) {
                    const int row = chunk * kChunk + index / kBatch, column = pass * kBatch + index % kBatch;
                    partial[(row * a.columns_pad + column) * kWarps + warp] = sums[0];
                }
            }
        }
        __syncthreads();
        if (cell_thread) {
            float *state = cell.state + n * cell.spn;
            if (t < 0) {
                state[h_out + i] = h_before;  // no step s: h carries over to the other buffer
            } else {
                const auto pre = [&](int q) {
                    const float *sums = partial + ((q * U + u) * a.columns_pad + n) * kWarps;
                    float sum = bias[q];
#pragma unroll
                    for (int w = 0; w < kWarps; ++w) sum += sums[w];
                    return sum;
                };
                float value = 0.0f;
                rnn_cell_forward_unit_from(
                    cell, n, i, t, [&](int q) { return gx[q]; }, pre, h_before, &value);
                state[h_out + i] = value;
                cell.out[(static_cast<int64_t>(t) * N + n) * cell.out_row + static_cast<int64_t>(cell.dir) * cell.P +
                         i] = value;
            }
        }
        if (s + 1 < a.steps) grid.sync();  // every block's h of step s written and visible; `partial` free again
    }
}

// LIBREDNN_RNN_PERSISTENT=0 turns the kernel off (read once).
bool switched_on() {
    static const bool on = [] {
        const char *text = std::getenv("LIBREDNN_RNN_PERSISTENT");
        return text == nullptr || std::strcmp(text, "0") != 0;
    }();
    return on;
}

const void *kernel_for(int tile) {
    return tile == 1 ? reinterpret_cast<const void *>(persistent_forward_kernel<1>)
                     : reinterpret_cast<const void *>(persistent_forward_kernel<4>);
}

const SharedMemoryOptIn &opt_in_for(int tile) {
    static const SharedMemoryOptIn one(kernel_for(1)), four(kernel_for(4));
    return tile == 1 ? one : four;
}

// Whether the device holds every block of the geometry at once (a cooperative launch's condition).
bool resident(const Geometry &g, const DeviceLimits &limits) {
    if (!opt_in_for(g.tile).allow(g.bytes)) return false;
    int device = 0, cooperative = 0, per_sm = 0;
    const bool known =
        cudaGetDevice(&device) == cudaSuccess &&
        cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device) == cudaSuccess &&
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel_for(g.tile), kThreads, g.bytes) == cudaSuccess;
    if (!known) cudaGetLastError();
    return known && cooperative != 0 && per_sm >= 1 && g.blocks <= per_sm * limits.sm_count;
}

}  // namespace

bool rnn_persistent_forward_applies(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    if (!switched_on() || rnn_compute_type(net) != CUDNN_DATA_FLOAT || net.projection() ||
        p.batch_size > kRnnPersistentMaxBatch || net.hidden_size > kMaxHidden)
        return false;
    const DeviceLimits limits = current_device_limits();
    const Geometry g = geometry(net.gates(), net.hidden_size, p.batch_size, limits.sm_count);
    return g.rows <= kMaxRows && g.units * p.batch_size <= kThreads &&
           g.bytes <= static_cast<size_t>(limits.max_dynamic_shared_bytes) && resident(g, limits);
}

Status rnn_persistent_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int steps) {
    if (steps <= 0) return CUDNN_STATUS_SUCCESS;
    const Geometry g = geometry(rnn_cell_gates(cell.cell), cell.H, cell.N, current_device_limits().sm_count);
    Persistent a;
    a.cell = cell, a.recurrent = recurrent, a.bias = bias, a.K = cell.H, a.quads = g.quads;
    a.units = g.units, a.rows = g.rows, a.rows_pad = g.rows_pad, a.columns_pad = g.columns_pad, a.steps = steps;
    const auto aligned16 = [](const void *pointer) { return reinterpret_cast<uintptr_t>(pointer) % 16 == 0; };
    a.vector = a.K % 4 == 0 && cell.P % 4 == 0 && cell.spn % 4 == 0 && aligned16(recurrent) && aligned16(cell.state);
    if (!opt_in_for(g.tile).allow(g.bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the persistent RNN kernel's %zu bytes of shared memory", g.bytes);
    void *arguments[] = {&a};
    const cudaError_t error =
        cudaLaunchCooperativeKernel(kernel_for(g.tile), g.blocks, kThreads, arguments, g.bytes, stream);
    if (error != cudaSuccess) {
        cudaGetLastError();
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "launching the persistent RNN kernel (%d blocks) failed: %s",
                    g.blocks, cudaGetErrorString(error));
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::cuda
