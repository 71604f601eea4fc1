// The persistent fused forward step on Hopper's warpgroup MMA (rnn_fused_step_wgmma.hpp). A block keeps its
// gates x units rows of R in shared memory as wgmma's K-major, 128-byte-swizzled B operand (rounded to TF32 once),
// and each step multiplies the 64 sequences' h by them: h streams from the state's TF32-rounded copy through four
// stages of 64 k (cp.async, stored in the swizzled layout wgmma reads), two in flight while one multiplies; each of
// the two warpgroups takes one 32-k half of every stage (wgmma m64nNk8, N the rows rounded up to 8) and its sums
// meet the other's in shared memory in a fixed order (deterministic). Then the block's cells run on the sums as in
// the mma.sync kernel, and the grid meets at a grid-wide barrier before the next step.
#include "cuda/rnn/rnn_fused_step_wgmma.hpp"

#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_fused_step.cuh"
#include "cuda/rnn/rnn_fused_step.hpp"

#if LIBREDNN_BUILD_SM90A
#include "cuda/common/async_copy.cuh"
#include "cuda/common/wgmma.cuh"

#include <cooperative_groups.h>
#endif

namespace librednn::cuda {

#if LIBREDNN_BUILD_SM90A

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "rnn_fused_step_wgmma.cu compiles for sm_90a only (src/CMakeLists.txt)"
#endif

namespace {

using namespace fused_step;

constexpr int kColumns = 64;          // sequences a pass: wgmma's 64 rows of A
constexpr int kBlockK = 32;           // 128 bytes of k: one swizzled row
constexpr int kChunkK = 2 * kBlockK;  // a stage: one 32-k block for each warpgroup
constexpr int kStages = 4;            // chunks c + 1 and c + 2 in flight while chunk c multiplies
constexpr int kStageFloats = kColumns * kChunkK;
constexpr int kSumsPitch = kColumns + 4;        // sums[warpgroup][row][sequence]: the stores fall on 32 banks
constexpr int kChunkPieces = kStageFloats / 4;  // 16-byte copies a stage

// wgmma's N: the block's rows of R rounded up to 8.
__host__ __device__ constexpr int padded_rows(int gates, int units) { return (gates * units + 7) / 8 * 8; }

size_t shared_bytes(int gates, int units, int k) {
    const size_t n = static_cast<size_t>(padded_rows(gates, units));
    return (n * k + static_cast<size_t>(kStages) * kStageFloats + 2 * n * kSumsPitch) * sizeof(float) + 1024;
}

// Rows r < gates x units of R (gate r / kUnits, unit unit0 + r % kUnits) rounded to TF32 into `rows` as 32-k
// blocks of kN rows (block b at b * kN * 32), zeros past the block's rows and past H; four loads of a thread in
// flight at once.
template <int kUnits, int kN>
__device__ __forceinline__ void stage_rows(const FusedStep &a, int gates, int unit0, float *rows) {
    const int H = a.cell.H, quads = a.K / 4, pieces = kN * quads;
    constexpr int kBatch = 4, kThreads = kWarps * 32;
    for (int p0 = static_cast<int>(threadIdx.x); p0 < pieces; p0 += kBatch * kThreads) {
        float4 v[kBatch];
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int p = p0 + b * kThreads, r = p / quads, q = p % quads, unit = unit0 + r % kUnits;
            v[b] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            if (p < pieces && r < gates * kUnits && unit < H)
                v[b] = __ldg(reinterpret_cast<const float4 *>(a.recurrent +
                                                              (static_cast<int64_t>(r / kUnits) * H + unit) * a.K) +
                             q);
        }
#pragma unroll
        for (int b = 0; b < kBatch; ++b) {
            const int p = p0 + b * kThreads, r = p / quads, q = p % quads;
            if (p >= pieces) break;
            const float4 w =
                make_float4(tf32_rounded(v[b].x), tf32_rounded(v[b].y), tf32_rounded(v[b].z), tf32_rounded(v[b].w));
            *reinterpret_cast<float4 *>(rows + (q / 8) * kN * kBlockK + wgmma_swizzled(r, q % 8)) = w;
        }
    }
}

template <int kGates, int kUnits>
__global__ void __launch_bounds__(kWarps * 32, 1) fused_steps_wgmma_kernel(const __grid_constant__ FusedStep a) {
    constexpr int kN = padded_rows(kGates, kUnits);
    extern __shared__ float4 dynamic[];
    float *rows = reinterpret_cast<float *>((reinterpret_cast<uintptr_t>(dynamic) + 1023) / 1024 * 1024);
    float *stages = rows + kN * a.K;                // [kStages][2 blocks][kColumns][kBlockK], swizzled
    float *sums = stages + kStages * kStageFloats;  // [2][kN][kSumsPitch]
    const CellForward<float> &cell = a.cell;
    const int tid = static_cast<int>(threadIdx.x), warpgroup = tid / 128, warp = (tid % 128) / 32;
    const int lane = tid % 32, g = lane / 4, t = lane % 4;
    const int N = cell.N, unit0 = static_cast<int>(blockIdx.x) * kUnits, chunks = a.K / kChunkK;
    stage_rows<kUnits, kN>(a, kGates, unit0, rows);
    // The first step's h rounded, each block its units of every sequence, visible to all before any reads it.
    for (int e = tid; e < kUnits * N; e += kWarps * 32) {
        const int i = unit0 + e % kUnits;
        float *st = cell.state + (e / kUnits) * cell.spn;
        if (i < cell.H) st[a.r_in + i] = tf32_rounded(st[a.h_in + i]);
    }
    fence_proxy_async();  // R's rows, stored by this thread, before the tensor cores read them
    cooperative_groups::this_grid().sync();

    // This thread's copies of a chunk: 16-byte piece `piece` of rows row0 + 16 i, i < 4 (a stage's 1024 pieces over
    // the block's 256 threads); the piece is float 4 (piece mod 8) of the 32-k block piece / 8.
    const int piece = tid % 16, row0 = tid / 16;
    static_assert(kChunkPieces == 4 * kWarps * 32 && kColumns == 4 * 16, "four rows a thread, 16 pieces a row");
    for (int step = 0; step < a.steps; ++step) {
        const int s = cell.s + step;
        const int64_t h_in = step % 2 == 0 ? a.h_in : a.h_out, h_out = step % 2 == 0 ? a.h_out : a.h_in;
        const int64_t r_in = step % 2 == 0 ? a.r_in : a.r_out, r_out = step % 2 == 0 ? a.r_out : a.r_in;
        for (int first = 0; first < N; first += kColumns) {
            CellInputs<kGates, kUnits, kColumns> inputs;
            load_cell_inputs(a, unit0, first, s, h_in, inputs);
            const float *sources[4];  // a sequence past N reads row N - 1, unused
#pragma unroll
            for (int i = 0; i < 4; ++i)
                sources[i] = cell.state + min(N - 1, first + row0 + 16 * i) * cell.spn + r_in + 4 * piece;
            const auto load_chunk = [&](int c) {
                if (c < chunks) {
                    float *stage = stages + (c % kStages) * kStageFloats + (piece / 8) * kColumns * kBlockK;
#pragma unroll
                    for (int i = 0; i < 4; ++i)
                        async_copy16(stage + wgmma_swizzled(row0 + 16 * i, piece % 8), sources[i] + c * kChunkK);
                }
                async_copy_commit();  // an empty group past the last chunk keeps the count
            };
            float acc[kN / 2];
#pragma unroll
            for (int e = 0; e < kN / 2; ++e) acc[e] = 0.0f;
            load_chunk(0);
            load_chunk(1);
            for (int c = 0; c < chunks; ++c) {
                async_copy_wait_groups<1>();  // chunk c landed (c + 1 may still be in flight)
                fence_proxy_async();
                // Every thread's copies of chunk c visible; every warpgroup done with chunk c - 2's stage, which
                // chunk c + 2 takes.
                __syncthreads();
                load_chunk(c + 2);
                const float *ta = stages + (c % kStages) * kStageFloats + warpgroup * kColumns * kBlockK;
                const float *tb = rows + (2 * c + warpgroup) * kN * kBlockK;
                wgmma_fence();
#pragma unroll
                for (int kk = 0; kk < kBlockK; kk += 8)  // 8 k are 32 bytes further along the swizzled rows
                    wgmma_m64nk8<kN>(acc, wgmma_descriptor(ta + kk), wgmma_descriptor(tb + kk), c > 0 || kk > 0);
                wgmma_commit();
                wgmma_wait<1>();  // chunk c - 1's products done: its stage may be refilled after the next barrier
            }
            wgmma_wait<0>();
#pragma unroll
            for (int e = 0; e < kN / 2; ++e) wgmma_settle(acc[e]);
                // Register 4 j + e: sequence 16 warp + g + 8 (e / 2), row 8 j + 2 t + e mod 2.
#pragma unroll
            for (int e = 0; e < kN / 2; ++e)
                sums[(warpgroup * kN + 8 * (e / 4) + 2 * t + (e & 1)) * kSumsPitch + 16 * warp + g +
                     8 * ((e % 4) / 2)] = acc[e];
            __syncthreads();
            finish_pass_loaded(a, unit0, first, h_out, r_out, inputs, [&](int q, int u, int j, float bias) {
                const int r = q * kUnits + u;
                return bias + (sums[r * kSumsPitch + j] + sums[(kN + r) * kSumsPitch + j]);
            });
            __syncthreads();  // the next pass writes `sums` and the stages again
        }
        // Every block's h of step s written and visible before any block reads it (copied with cp.async.cg, from
        // L2).
        if (step + 1 < a.steps) cooperative_groups::this_grid().sync();
    }
}

// Eight units a block from kRnnFusedWideTileHidden, else four, as the mma.sync kernel.
int units_for(int hidden) { return hidden >= kRnnFusedWideTileHidden ? 8 : 4; }

// The kernel of a cell's gates and a block's units, and its shared-memory opt-in.
struct Instance {
    const void *kernel;
    const SharedMemoryOptIn *opt_in;
};

template <int kGates, int kUnits>
Instance instance() {
    const void *kernel = reinterpret_cast<const void *>(fused_steps_wgmma_kernel<kGates, kUnits>);
    static const SharedMemoryOptIn opt_in(kernel);
    return {kernel, &opt_in};
}

template <int kGates>
Instance instance(int units) {
    return units == 8 ? instance<kGates, 8>() : instance<kGates, 4>();
}

Instance instance(int gates, int units) {
    switch (gates) {
        case 4: return instance<4>(units);
        case 3: return instance<3>(units);
        default: return instance<1>(units);
    }
}

constexpr const char *kAnswers[] = {
    nullptr,
    "it needs an sm_90 device",
    "no sm_90a image of the kernel loads on this device",
};

int query_answer() {
    const DeviceLimits limits = current_device_limits();
    if (limits.compute_major != 9 || limits.compute_minor != 0) return 1;
    cudaFuncAttributes attributes;
    if (cudaFuncGetAttributes(&attributes, instance(4, 8).kernel) != cudaSuccess) {
        cudaGetLastError();
        return 2;
    }
    return 0;
}

}  // namespace

bool rnn_fused_steps_wgmma_applies(int gates, int hidden, const char **reason) {
    static const bool off = switched_off("LIBREDNN_RNN_FUSED_STEP_WGMMA");
    static const DeviceQuestion runs(query_answer, kAnswers);
    const int units = units_for(hidden), blocks = (hidden + units - 1) / units;
    const size_t bytes = shared_bytes(gates, units, hidden);
    const Instance kernel = instance(gates, units);
    const char *why = nullptr;
    if (off)
        why = "switched off by LIBREDNN_RNN_FUSED_STEP_WGMMA=0";
    else if (hidden % kChunkK != 0)
        why = "it takes hidden sizes that are multiples of 64";
    else if (runs.ask(&why) && !kernel.opt_in->allow(bytes))  // ask() gives the device's reason
        why = "a block's rows of R and its stages do not fit its shared memory";
    else if (why == nullptr && !cooperative_launch_fits(kernel.kernel, kWarps * 32, bytes, blocks))
        why = "the device cannot hold every block at once";
    if (reason != nullptr) *reason = why;
    return why == nullptr;
}

Status rnn_fused_steps_wgmma(cudaStream_t stream, const fused_step::FusedStep &a, bool *launched,
                             const char **declined) {
    *launched = false;
    const int gates = rnn_cell_gates(a.cell.cell), units = units_for(a.cell.H), blocks = (a.cell.H + units - 1) / units;
    if (!rnn_fused_steps_wgmma_applies(gates, a.K, declined)) return CUDNN_STATUS_SUCCESS;
    FusedStep copy = a;
    *launched = true;
    return launch_cooperative(stream, instance(gates, units).kernel, blocks, kWarps * 32,
                              shared_bytes(gates, units, a.K), &copy, "the persistent fused RNN steps on wgmma");
}

#else  // built without sm_90a

bool rnn_fused_steps_wgmma_applies(int, int, const char **reason) {
    if (reason != nullptr) *reason = "this build has no sm_90a kernels (its CUDA architectures do not include 90)";
    return false;
}

Status rnn_fused_steps_wgmma(cudaStream_t, const fused_step::FusedStep &, bool *launched, const char **declined) {
    *launched = false;
    rnn_fused_steps_wgmma_applies(0, 0, declined);
    return CUDNN_STATUS_SUCCESS;
}

#endif

}  // namespace librednn::cuda
