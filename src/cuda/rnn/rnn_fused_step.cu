// The fused forward step of the CUDA RNN (rnn_fused_step.hpp), in two kernels: FP32 on CUDA cores (FMA
// math, or a hidden size the other does not take) and TF32 on tensor cores.
#include "cuda/common/async_copy.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_fused_step.cuh"
#include "cuda/rnn/rnn_fused_step.hpp"
#include "cuda/rnn/rnn_fused_step_wgmma.hpp"
#include "cuda/rnn/rnn_persistent.hpp"

#include <cooperative_groups.h>

#include <cstdlib>
#include <cstring>

namespace librednn::cuda {

namespace {

using namespace fused_step;

// Shared memory for a block's rows of R: with the reductions' 32 KB, within the H200's 227 KB per block.
constexpr size_t kStagedLimit = 160 * 1024;
constexpr int kHalves = kWarps / 2;

// Copies the block's kRows rows of R (gate r / kUnits, unit unit0 + r % kUnits; a unit past H reads a valid
// row, unused) into shared memory, `pitch4` float4 a row, as 16-byte asynchronous copies all in flight at once
// (loads through registers would wait on memory one after another), and waits for this thread's copies.
template <int kRows, int kUnits>
__device__ __forceinline__ void stage_rows(const FusedStep &a, int unit0, float4 *staged, int pitch4) {
    const int H = a.cell.H, quads = a.K / 4;
    for (int e = static_cast<int>(threadIdx.x); e < kRows * quads; e += kWarps * 32) {
        const int r = e / quads, q = e % quads, unit = min(H - 1, unit0 + r % kUnits);
        async_copy16(
            staged + r * pitch4 + q,
            reinterpret_cast<const float4 *>(a.recurrent + (static_cast<int64_t>(r / kUnits) * H + unit) * a.K) + q);
    }
    async_copy_wait_all();
}

// The cell of the block's units at step s for the pass's sequences [first, first + kColumns): pre(q) is gate q's
// R h + b_R, `sum(q, u, j, bias)` adding the pass's R h for gate q of unit u and column j to the bias; h read from
// offset h_in of the state, written to h_out. A sequence without step s copies its h across to the other buffer.
template <int kUnits, int kColumns, class Sum>
__device__ __forceinline__ void finish_pass(const FusedStep &a, int unit0, int first, int s, int64_t h_in,
                                            int64_t h_out, const Sum &sum) {
    const CellForward<float> &cell = a.cell;
    const int H = cell.H, N = cell.N;
    for (int e = static_cast<int>(threadIdx.x); e < kUnits * kColumns; e += kWarps * 32) {
        const int u = e / kColumns, j = e % kColumns, n = first + j, i = unit0 + u;
        if (n >= N || i >= H) continue;
        float *st = cell.state + n * cell.spn;
        const int t = rnn_step_time(cell.lengths, n, cell.dir, s);
        if (t < 0) {
            st[h_out + i] = st[h_in + i];  // no step s: h carries over to the other buffer
            continue;
        }
        const auto pre = [&](int q) { return sum(q, u, j, a.bias ? a.bias[q * H + i] : 0.0f); };
        float value = 0.0f;
        rnn_cell_forward_unit(cell, n, i, t, pre, st[h_in + i], &value);
        st[h_out + i] = value;
        cell.out[(static_cast<int64_t>(t) * N + n) * cell.out_row + static_cast<int64_t>(cell.dir) * cell.P + i] =
            value;
    }
}

__device__ __forceinline__ float dot8(const float4 &w0, const float4 &w1, const float4 &h0, const float4 &h1,
                                      float sum) {
    sum = fmaf(w0.x, h0.x, sum), sum = fmaf(w0.y, h0.y, sum), sum = fmaf(w0.z, h0.z, sum);
    sum = fmaf(w0.w, h0.w, sum), sum = fmaf(w1.x, h1.x, sum), sum = fmaf(w1.y, h1.y, sum);
    sum = fmaf(w1.z, h1.z, sum), sum = fmaf(w1.w, h1.w, sum);
    return sum;
}

// Block b: units [kUnits b, kUnits (b + 1)). The block first copies its gates * kUnits rows of R into shared
// memory (coalesced; read there by every lane at once, a broadcast). Lane l of each warp takes sequence l (and
// l + 32 when kColumns is 64) of each pass over the batch; warp w sums its part of k, eight at a time, loading
// the next eight of h while it multiplies these. The warps' sums meet in shared memory in a fixed order (w +
// w + 4, then the four pairs in order), so that the result does not depend on scheduling.
template <int kGates, int kUnits, int kColumns>
__global__ void __launch_bounds__(kWarps * 32) fused_step_kernel(const __grid_constant__ FusedStep a) {
    constexpr int kRows = kGates * kUnits, kPerLane = kColumns / 32;
    __shared__ float partial[kHalves][kRows][kColumns];
    extern __shared__ float4 staged[];  // [kRows][K / 4]
    const CellForward<float> &cell = a.cell;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int N = cell.N, unit0 = static_cast<int>(blockIdx.x) * kUnits;
    const int quads = a.K / 4, chunks = a.K / 8, per_warp = (chunks + kWarps - 1) / kWarps;
    const int chunk_begin = min(chunks, warp * per_warp), chunk_end = min(chunks, chunk_begin + per_warp);
    stage_rows<kRows, kUnits>(a, unit0, staged, quads);
    __syncthreads();
    for (int first = 0; first < N; first += kColumns) {
        float acc[kRows][kPerLane];
#pragma unroll
        for (int r = 0; r < kRows; ++r)
#pragma unroll
            for (int c = 0; c < kPerLane; ++c) acc[r][c] = 0.0f;
        const float4 *h[kPerLane];
#pragma unroll
        for (int c = 0; c < kPerLane; ++c) {
            const int n = min(N - 1, first + lane + 32 * c);  // a sequence past N reads a valid row, unused
            h[c] = reinterpret_cast<const float4 *>(cell.state + n * cell.spn + a.h_in);
        }
        float4 h0[kPerLane], h1[kPerLane];
#pragma unroll
        for (int c = 0; c < kPerLane; ++c) {
            h0[c] = chunk_begin < chunk_end ? __ldg(h[c] + 2 * chunk_begin) : float4{};
            h1[c] = chunk_begin < chunk_end ? __ldg(h[c] + 2 * chunk_begin + 1) : float4{};
        }
        for (int chunk = chunk_begin; chunk < chunk_end; ++chunk) {
            float4 next0[kPerLane], next1[kPerLane];
            const int ahead = min(chunk + 1, chunk_end - 1);
#pragma unroll
            for (int c = 0; c < kPerLane; ++c) {
                next0[c] = __ldg(h[c] + 2 * ahead);
                next1[c] = __ldg(h[c] + 2 * ahead + 1);
            }
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                const float4 w0 = staged[r * quads + 2 * chunk], w1 = staged[r * quads + 2 * chunk + 1];
#pragma unroll
                for (int c = 0; c < kPerLane; ++c) acc[r][c] = dot8(w0, w1, h0[c], h1[c], acc[r][c]);
            }
#pragma unroll
            for (int c = 0; c < kPerLane; ++c) h0[c] = next0[c], h1[c] = next1[c];
        }
        if (warp >= kHalves) {
#pragma unroll
            for (int r = 0; r < kRows; ++r)
#pragma unroll
                for (int c = 0; c < kPerLane; ++c) partial[warp - kHalves][r][lane + 32 * c] = acc[r][c];
        }
        __syncthreads();
        if (warp < kHalves) {
#pragma unroll
            for (int r = 0; r < kRows; ++r)
#pragma unroll
                for (int c = 0; c < kPerLane; ++c) partial[warp][r][lane + 32 * c] += acc[r][c];
        }
        __syncthreads();
        finish_pass<kUnits, kColumns>(a, unit0, first, cell.s, a.h_in, a.h_out, [&](int q, int u, int j, float sum) {
#pragma unroll
            for (int half = 0; half < kHalves; ++half) sum += partial[half][q * kUnits + u][j];
            return sum;
        });
        __syncthreads();  // the next pass writes `partial` again
    }
}

// --- TF32 on tensor cores ------------------------------------------------------------------------------------

// h streams through two buffers of kChunkK of k for the pass's 64 sequences, each row padded to 16 floats past
// the chunk so that the eight rows a 16-byte fragment read touches fall on different banks.
constexpr int kChunkK = 128, kHPitch = kChunkK + 16;
// A chunk's row of kChunkQuads float4; a block's threads copy kColumnStep rows at a time.
constexpr int kChunkQuads = kChunkK / 4, kColumnStep = kWarps * 32 / kChunkQuads;
constexpr size_t kHTileBytes = 2 * 64 * kHPitch * sizeof(float);
// The TF32 kernel's dynamic shared memory at most: with its 8.5 KB of sums, within the H200's 227 KB a block.
constexpr size_t kTf32SharedLimit = 216 * 1024;
// The block's rows of R as whole m16 tiles (zeros past its rows), then h's buffers.
size_t tf32_staged_bytes(int gates, int units, int k) {
    return static_cast<size_t>((gates * units + 15) / 16 * 16) * k * sizeof(float) + kHTileBytes;
}

// Stages the block's kRows rows of R (as stage_rows picks them), rounded to TF32, as the mma's A fragments: float4
// ((tile * K / 16 + slice) * 2 + m) * 32 + lane holds what lane 4 g + t passes to the m-th mma of the 16-k slice,
// rows g and g + 8 of the tile at the stored k 16 slice + 4 t + 2 m and the next one (the mma's k t and t + 4):
// one conflict-free 16-byte read a mma, and no register moves to put the four in order. Rows past kRows are zeros.
template <int kRows, int kUnits, int kTiles>
__device__ __forceinline__ void stage_fragments(const FusedStep &a, int unit0, float4 *frags) {
    const int H = a.cell.H, quads = a.K / 4, slices = a.K / 16;
#pragma unroll 4
    for (int e = static_cast<int>(threadIdx.x); e < kTiles * 16 * quads; e += kWarps * 32) {
        const int r = e / quads, q = e % quads;
        float4 v = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
        if (r < kRows) {
            const int unit = min(H - 1, unit0 + r % kUnits);
            v = __ldg(
                reinterpret_cast<const float4 *>(a.recurrent + (static_cast<int64_t>(r / kUnits) * H + unit) * a.K) +
                q);
        }
        const int tile = r / 16, hi = (r % 16) / 8, lane = (r % 8) * 4 + q % 4;
        float *f0 = reinterpret_cast<float *>(frags + ((tile * slices + q / 4) * 2) * 32 + lane);
        float *f1 = f0 + 32 * 4;
        f0[hi] = tf32_rounded(v.x), f0[2 + hi] = tf32_rounded(v.y);
        f1[hi] = tf32_rounded(v.z), f1[2 + hi] = tf32_rounded(v.w);
    }
}

// The same step with R h on mma.sync m16n8k8 TF32: the block's rows of R, rounded to TF32 once, in shared memory
// as kTiles m16 tiles of A fragments; 64 sequences a pass, the eight warps as kTiles (rows) x 8 / kTiles
// (columns), each warp one m16 tile by kTiles n8 tiles over the whole sum (no reduction between warps:
// deterministic). A lane reads 16 k of h at a time as one 16-byte load per sequence: the mma's k index t and t + 4
// of the first 8-k step are the stored k 4t and 4t + 1, of the second 4t + 2 and 4t + 3 (the same for R's
// fragments, so the sum is the same). h streams through shared memory 128 k at a time, the next chunk's copies in
// flight while the current one multiplies. kRounded (a persistent launch): the products read h rounded to TF32
// from the state's r buffers, which the block's cells write beside each h (the launch rounds the first h once,
// before its first step), instead of rounding each value they read (two instructions a value on sm_90).
template <int kGates, int kUnits, bool kRounded>
__global__ void __launch_bounds__(kWarps * 32) fused_step_tf32_kernel(const __grid_constant__ FusedStep a) {
    constexpr int kRows = kGates * kUnits, kTiles = (kRows + 15) / 16, kColumns = 64;
    static_assert(kTiles == 1 || kTiles == 2, "one or two m16 tiles of rows");
    static_assert(kWarps / kTiles * kTiles * 8 == kColumns, "the warps' n8 tiles cover the pass");
    static_assert(kColumns % kColumnStep == 0, "the copies of a chunk cover its rows");
    __shared__ float sums[kTiles * 16][kColumns + 4];
    extern __shared__ float4 staged[];  // R's fragments [kTiles][K / 16][2][32], then h_tiles
    const CellForward<float> &cell = a.cell;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int group = lane / 4, quad = lane % 4;
    const int N = cell.N, unit0 = static_cast<int>(blockIdx.x) * kUnits;
    const int slices = a.K / 16;
    float4 *h_tiles = staged + kTiles * slices * 2 * 32;  // [2][kColumns][kHPitch / 4]
    stage_fragments<kRows, kUnits, kTiles>(a, unit0, staged);
    if constexpr (kRounded) {
        // The first step's h rounded, each block its units of every sequence, visible to all before any reads it.
        for (int e = static_cast<int>(threadIdx.x); e < kUnits * N; e += kWarps * 32) {
            const int i = unit0 + e % kUnits;
            float *st = cell.state + (e / kUnits) * cell.spn;
            if (i < cell.H) st[a.r_in + i] = tf32_rounded(st[a.h_in + i]);
        }
        cooperative_groups::this_grid().sync();
    } else {
        __syncthreads();
    }
    const int warp_m = warp % kTiles, warp_n = warp / kTiles;
    const float4 *frag = staged + warp_m * slices * 2 * 32 + lane;
    for (int step = 0; step < a.steps; ++step) {
        const int s = cell.s + step;
        const int64_t h_in = step % 2 == 0 ? a.h_in : a.h_out, h_out = step % 2 == 0 ? a.h_out : a.h_in;
        const int64_t r_in = step % 2 == 0 ? a.r_in : a.r_out, r_out = step % 2 == 0 ? a.r_out : a.r_in;
        for (int first = 0; first < N; first += kColumns) {
            CellInputs<kGates, kUnits, kColumns> inputs;
            load_cell_inputs(a, unit0, first, s, h_in, inputs);
            // Two sums a tile, of the first and the second 8-k step of each 16-k slice: twice the independent mma
            // chains a warp keeps in flight (one chain a tile left each warp waiting on the mma before).
            float acc[kTiles][2][4];
#pragma unroll
            for (int j = 0; j < kTiles; ++j)
#pragma unroll
                for (int e = 0; e < 8; ++e) acc[j][e / 4][e % 4] = 0.0f;
            // h of the pass's 64 sequences (rounded to TF32 where kRounded), kChunkK of k at a time into two buffers:
            // chunk c + 1 lands while chunk c multiplies (all of a chunk's copies in flight at once: h's latency no
            // longer paces the sum). The thread copies float4 `quad4` of columns column0 + i kColumnStep: their rows'
            // addresses are worked out once a pass (a column past N reads row N - 1, unused).
            const int64_t h_read = kRounded ? r_in : h_in;
            const int quad4 = static_cast<int>(threadIdx.x) % kChunkQuads;
            const int column0 = static_cast<int>(threadIdx.x) / kChunkQuads;
            const float *row0 = cell.state + min(N - 1, first + column0) * cell.spn + h_read + 4 * quad4;
            const int64_t row_step = kColumnStep * cell.spn;
            const bool whole_pass = first + kColumns <= N;
            const auto load_chunk = [&](int c) {
                float4 *tile = h_tiles + (c % 2) * kColumns * (kHPitch / 4) + column0 * (kHPitch / 4) + quad4;
                if (4 * quad4 < a.K - c * kChunkK) {  // within k (the last chunk may be short)
#pragma unroll
                    for (int i = 0; i < kColumns / kColumnStep; ++i) {
                        const float *row = whole_pass
                                               ? row0 + i * row_step
                                               : cell.state + min(N - 1, first + column0 + i * kColumnStep) * cell.spn +
                                                     h_read + 4 * quad4;
                        async_copy16(tile + i * kColumnStep * (kHPitch / 4), row + c * kChunkK);
                    }
                }
                async_copy_commit();
            };
            const auto h_bits = [](float x) { return kRounded ? __float_as_uint(x) : tf32_bits(x); };
            const auto multiply_slice = [&](const float4 *tile, int sl, int slice) {
                const float4 f0 = frag[slice * 2 * 32], f1 = frag[(slice * 2 + 1) * 32];
#pragma unroll
                for (int j = 0; j < kTiles; ++j) {
                    const float4 hv = tile[((warp_n * kTiles + j) * 8 + group) * (kHPitch / 4) + 4 * sl + quad];
                    mma_tf32_m16n8k8(acc[j][0], __float_as_uint(f0.x), __float_as_uint(f0.y), __float_as_uint(f0.z),
                                     __float_as_uint(f0.w), h_bits(hv.x), h_bits(hv.y));
                    mma_tf32_m16n8k8(acc[j][1], __float_as_uint(f1.x), __float_as_uint(f1.y), __float_as_uint(f1.z),
                                     __float_as_uint(f1.w), h_bits(hv.z), h_bits(hv.w));
                }
            };
            const int chunks = (a.K + kChunkK - 1) / kChunkK;
            for_each_double_buffered_chunk(chunks, load_chunk, [&](int c) {
                const float4 *tile = h_tiles + (c % 2) * kColumns * (kHPitch / 4);
                const int chunk_slices = min(kChunkK, a.K - c * kChunkK) / 16;
                if (chunk_slices == kChunkK / 16) {
                    // A whole chunk unrolled: the compiler issues the shared-memory reads of later slices ahead.
#pragma unroll
                    for (int sl = 0; sl < kChunkK / 16; ++sl) multiply_slice(tile, sl, c * (kChunkK / 16) + sl);
                } else {
                    for (int sl = 0; sl < chunk_slices; ++sl) multiply_slice(tile, sl, c * (kChunkK / 16) + sl);
                }
            });
#pragma unroll
            for (int j = 0; j < kTiles; ++j)
#pragma unroll
                for (int e = 0; e < 4; ++e)
                    sums[warp_m * 16 + group + (e >= 2 ? 8 : 0)][(warp_n * kTiles + j) * 8 + 2 * quad + (e & 1)] =
                        acc[j][0][e] + acc[j][1][e];
            __syncthreads();
            finish_pass_loaded(a, unit0, first, h_out, kRounded ? r_out : int64_t{-1}, inputs,
                               [&](int q, int u, int j, float bias) { return bias + sums[q * kUnits + u][j]; });
            __syncthreads();  // the next pass writes `sums` again
        }
        // A persistent launch: every block's h of step s written and visible before any block reads it (h is copied
        // with cp.async.cg, from L2).
        if (step + 1 < a.steps) cooperative_groups::this_grid().sync();
    }
}

// The shared memory a block of kGates * kUnits rows of R over k keeps the rows in.
size_t staged_bytes(int gates, int units, int k) { return static_cast<size_t>(gates) * units * k * sizeof(float); }

template <int kGates, int kUnits, int kColumns>
Status launch_with(cudaStream_t stream, const FusedStep &a) {
    const auto kernel = fused_step_kernel<kGates, kUnits, kColumns>;
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(kernel));
    const size_t bytes = staged_bytes(kGates, kUnits, a.K);
    if (!opt_in.allow(bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the fused RNN step's %zu bytes of shared memory", bytes);
    const int blocks = (a.cell.H + kUnits - 1) / kUnits;
    kernel<<<blocks, kWarps * 32, bytes, stream>>>(a);
    return check_launch("fused_step_kernel");
}

template <int kGates, int kUnits>
Status launch(cudaStream_t stream, const FusedStep &a) {
    return a.cell.N > 32 ? launch_with<kGates, kUnits, 64>(stream, a) : launch_with<kGates, kUnits, 32>(stream, a);
}

// Eight units per block from kRnnFusedWideTileHidden where their rows fit in shared memory, else four.
template <int kGates>
Status launch(cudaStream_t stream, const FusedStep &a) {
    if (a.cell.H >= kRnnFusedWideTileHidden && staged_bytes(kGates, 8, a.K) <= kStagedLimit)
        return launch<kGates, 8>(stream, a);
    return launch<kGates, 4>(stream, a);
}

// One step (a.steps 1), or all of them in a cooperative launch (a.steps > 1, h rounded beside each h: kRounded)
// where the device holds every block at once; *launched false (nothing launched) where it does not.
template <int kGates, int kUnits>
Status launch_tf32_with(cudaStream_t stream, const FusedStep &a, bool *launched) {
    const auto single = fused_step_tf32_kernel<kGates, kUnits, false>;
    const auto persistent = fused_step_tf32_kernel<kGates, kUnits, true>;
    static const SharedMemoryOptIn single_opt_in(reinterpret_cast<const void *>(single));
    static const SharedMemoryOptIn persistent_opt_in(reinterpret_cast<const void *>(persistent));
    const size_t bytes = tf32_staged_bytes(kGates, kUnits, a.K);
    *launched = false;
    if (!(a.steps == 1 ? single_opt_in : persistent_opt_in).allow(bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the fused RNN step's %zu bytes of shared memory", bytes);
    const int blocks = (a.cell.H + kUnits - 1) / kUnits;
    if (a.steps == 1) {
        single<<<blocks, kWarps * 32, bytes, stream>>>(a);
        *launched = true;
        return check_launch("fused_step_tf32_kernel");
    }
    if (!cooperative_launch_fits(reinterpret_cast<const void *>(persistent), kWarps * 32, bytes, blocks))
        return CUDNN_STATUS_SUCCESS;
    FusedStep copy = a;
    *launched = true;
    return launch_cooperative(stream, reinterpret_cast<const void *>(persistent), blocks, kWarps * 32, bytes, &copy,
                              "the persistent fused RNN steps");
}

// The TF32 kernel with the FP32 kernel's units per block (the caller checked tf32_fits).
template <int kGates>
Status launch_tf32(cudaStream_t stream, const FusedStep &a, bool *launched) {
    if (a.cell.H >= kRnnFusedWideTileHidden && tf32_staged_bytes(kGates, 8, a.K) <= kTf32SharedLimit)
        return launch_tf32_with<kGates, 8>(stream, a, launched);
    return launch_tf32_with<kGates, 4>(stream, a, launched);
}

template <int kGates>
Status launch_tf32(cudaStream_t stream, const FusedStep &a) {
    bool launched = false;
    return launch_tf32<kGates>(stream, a, &launched);
}

// The TF32 kernel takes 16 k at a time, and its rows must fit.
bool tf32_fits(int gates, int k) { return k % 16 == 0 && tf32_staged_bytes(gates, 4, k) <= kTf32SharedLimit; }

// LIBREDNN_RNN_FUSED_STEP (read once): "0" turns the fused step off, "fp32" keeps it on CUDA cores.
enum class FusedSwitch { on, off, fp32 };
FusedSwitch fused_switch() {
    static const FusedSwitch value = [] {
        const char *text = std::getenv("LIBREDNN_RNN_FUSED_STEP");
        if (text != nullptr && std::strcmp(text, "0") == 0) return FusedSwitch::off;
        if (text != nullptr && std::strcmp(text, "fp32") == 0) return FusedSwitch::fp32;
        return FusedSwitch::on;
    }();
    return value;
}

bool aligned32(const void *pointer) { return reinterpret_cast<uintptr_t>(pointer) % 32 == 0; }

}  // namespace

bool rnn_fused_step_applies(const RnnProblem &p, const float *recurrent, const float *state, int64_t state_per_sequence,
                            const char **reason) {
    static_assert(kRnnFusedStepBatch == 17, "the sentence below");
    const RnnNetwork &net = p.net;
    const char *why = nullptr;
    if (fused_switch() == FusedSwitch::off) {
        why = "switched off by LIBREDNN_RNN_FUSED_STEP=0";
    } else if (p.batch_size < kRnnFusedStepBatch) {
        why = "it takes batches from 17 sequences";
    } else if (rnn_compute_type(net) != CUDNN_DATA_FLOAT) {
        why = "it computes in float only";
    } else if (net.projection()) {
        why = "it takes no projection";
    } else if (net.hidden_size % 8 != 0) {
        why = "it takes hidden sizes that are multiples of 8";
    } else if (staged_bytes(net.gates(), 4, net.hidden_size) > kStagedLimit) {
        why = "a block's rows of R do not fit its shared memory";
    } else if (state_per_sequence % 8 != 0 || !aligned32(recurrent) || !aligned32(state)) {
        why = "R or the state is not 32-byte aligned";
    }
    if (why != nullptr && reason != nullptr) *reason = why;
    return why == nullptr;
}

Status rnn_fused_step_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int64_t h_in, int64_t h_out, bool tensor_cores) {
    FusedStep a;
    a.cell = cell, a.recurrent = recurrent, a.bias = bias, a.h_in = h_in, a.h_out = h_out, a.K = cell.P, a.steps = 1;
    a.r_in = a.r_out = -1;
    const int gates = rnn_cell_gates(cell.cell);
    if (tensor_cores && fused_switch() != FusedSwitch::fp32 && tf32_fits(gates, a.K)) {
        switch (gates) {
            case 4: return launch_tf32<4>(stream, a);
            case 3: return launch_tf32<3>(stream, a);
            default: return launch_tf32<1>(stream, a);
        }
    }
    switch (gates) {
        case 4: return launch<4>(stream, a);
        case 3: return launch<3>(stream, a);
        default: return launch<1>(stream, a);
    }
}

Status rnn_fused_steps_persistent_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                                          const float *bias, int steps, bool tensor_cores, bool *launched,
                                          const char **wgmma_declined) {
    *launched = false;
    if (wgmma_declined != nullptr) *wgmma_declined = "it runs the persistent TF32 steps only";
    const int gates = rnn_cell_gates(cell.cell);
    if (!rnn_persistent_switched_on() || steps < 2 || !tensor_cores || fused_switch() == FusedSwitch::fp32 ||
        !tf32_fits(gates, cell.P))
        return CUDNN_STATUS_SUCCESS;
    FusedStep a;
    a.cell = cell, a.recurrent = recurrent, a.bias = bias, a.K = cell.P, a.steps = steps;
    a.cell.s = 0, a.h_in = cell.at.h, a.h_out = cell.at.h_new;
    // h rounded to TF32 in the state's room for the unprojected h and R h + b_R, which the fused step does not use
    // (without a projection, at least 3 hidden from there: forward_state, RnnWorkspace::state_per_sequence).
    a.r_in = cell.at.full, a.r_out = cell.at.full + cell.P;
    LIBREDNN_CHECK(rnn_fused_steps_wgmma(stream, a, launched, wgmma_declined));
    if (*launched) return CUDNN_STATUS_SUCCESS;
    switch (gates) {
        case 4: return launch_tf32<4>(stream, a, launched);
        case 3: return launch_tf32<3>(stream, a, launched);
        default: return launch_tf32<1>(stream, a, launched);
    }
}

}  // namespace librednn::cuda
