// The fused forward step of the CUDA RNN (rnn_fused_step.hpp).
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_fused_step.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>

namespace librednn::cuda {

namespace {

// Hidden units per block: gates * kUnits rows of R. 8 from kWideTileHidden units (H / 8 blocks fill the
// H200's 132 SMs about once), else 4 (twice the blocks, each reading h once more).
constexpr int kWideTileHidden = 768;
constexpr int kWarps = 8;  // warps per block, each a part of the sum over k
// Shared memory for a block's rows of R: with the reductions' 32 KB, within the H200's 227 KB per block.
constexpr size_t kStagedLimit = 160 * 1024;
constexpr int kHalves = kWarps / 2;

struct FusedStep {
    CellForward<float> cell;
    const float *recurrent;  // [gates * H][K]
    const float *bias;       // [gates * H] or NULL
    int64_t h_in, h_out;
    int K;
};

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
    const int H = cell.H, N = cell.N, unit0 = static_cast<int>(blockIdx.x) * kUnits;
    const int quads = a.K / 4, chunks = a.K / 8, per_warp = (chunks + kWarps - 1) / kWarps;
    const int chunk_begin = min(chunks, warp * per_warp), chunk_end = min(chunks, chunk_begin + per_warp);
    for (int e = static_cast<int>(threadIdx.x); e < kRows * quads; e += kWarps * 32) {
        const int r = e / quads, unit = min(H - 1, unit0 + r % kUnits);  // a unit past H: a valid row, unused
        staged[e] =
            __ldg(reinterpret_cast<const float4 *>(a.recurrent + (static_cast<int64_t>(r / kUnits) * H + unit) * a.K) +
                  e % quads);
    }
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
        for (int e = static_cast<int>(threadIdx.x); e < kUnits * kColumns; e += kWarps * 32) {
            const int u = e / kColumns, j = e % kColumns, n = first + j, i = unit0 + u;
            if (n >= N || i >= H) continue;
            float *st = cell.state + n * cell.spn;
            const int t = rnn_step_time(cell.lengths, n, cell.dir, cell.s);
            if (t < 0) {
                st[a.h_out + i] = st[a.h_in + i];  // no step s: h carries over to the other buffer
                continue;
            }
            const auto pre = [&](int q) {
                float sum = a.bias ? a.bias[q * H + i] : 0.0f;
#pragma unroll
                for (int half = 0; half < kHalves; ++half) sum += partial[half][q * kUnits + u][j];
                return sum;
            };
            float value = 0.0f;
            rnn_cell_forward_unit(cell, n, i, t, pre, st[a.h_in + i], &value);
            st[a.h_out + i] = value;
            cell.out[(static_cast<int64_t>(t) * N + n) * cell.out_row + static_cast<int64_t>(cell.dir) * cell.P + i] =
                value;
        }
        __syncthreads();  // the next pass writes `partial` again
    }
}

// The shared memory a block of kGates * kUnits rows of R over k keeps the rows in.
size_t staged_bytes(int gates, int units, int k) { return static_cast<size_t>(gates) * units * k * sizeof(float); }

// Opts the kernel into its shared memory on the current device, once per device (a first use may race: the
// call is idempotent).
template <class Kernel>
cudaError_t allow_shared(Kernel kernel, std::atomic<uint64_t> *devices) {
    int device = 0;
    cudaError_t error = cudaGetDevice(&device);
    if (error != cudaSuccess) return error;
    const uint64_t bit = device < 64 ? uint64_t{1} << device : 0;
    if (bit != 0 && (devices->load(std::memory_order_acquire) & bit) != 0) return cudaSuccess;
    error = cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(kStagedLimit));
    if (error == cudaSuccess) devices->fetch_or(bit, std::memory_order_acq_rel);
    return error;
}

template <int kGates, int kUnits, int kColumns>
Status launch_with(cudaStream_t stream, const FusedStep &a) {
    static std::atomic<uint64_t> devices{0};
    const auto kernel = fused_step_kernel<kGates, kUnits, kColumns>;
    const cudaError_t error = allow_shared(kernel, &devices);
    if (error != cudaSuccess)
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the fused RNN step's shared memory: %s", cudaGetErrorString(error));
    const int blocks = (a.cell.H + kUnits - 1) / kUnits;
    kernel<<<blocks, kWarps * 32, staged_bytes(kGates, kUnits, a.K), stream>>>(a);
    return check_launch("fused_step_kernel");
}

template <int kGates, int kUnits>
Status launch(cudaStream_t stream, const FusedStep &a) {
    return a.cell.N > 32 ? launch_with<kGates, kUnits, 64>(stream, a) : launch_with<kGates, kUnits, 32>(stream, a);
}

// Eight units per block from kWideTileHidden where their rows fit in shared memory, else four.
template <int kGates>
Status launch(cudaStream_t stream, const FusedStep &a) {
    if (a.cell.H >= kWideTileHidden && staged_bytes(kGates, 8, a.K) <= kStagedLimit)
        return launch<kGates, 8>(stream, a);
    return launch<kGates, 4>(stream, a);
}

bool aligned32(const void *pointer) { return reinterpret_cast<uintptr_t>(pointer) % 32 == 0; }

}  // namespace

bool rnn_fused_step_applies(const RnnProblem &p, const float *recurrent, const float *state,
                            int64_t state_per_sequence) {
    static const bool off = [] {
        const char *value = std::getenv("LIBREDNN_RNN_FUSED_STEP");
        return value != nullptr && std::strcmp(value, "0") == 0;
    }();
    const RnnNetwork &net = p.net;
    return !off && p.batch_size >= kRnnFusedStepBatch && rnn_compute_type(net) == CUDNN_DATA_FLOAT &&
           !net.projection() && net.hidden_size % 8 == 0 &&
           staged_bytes(net.gates(), 4, net.hidden_size) <= kStagedLimit && state_per_sequence % 8 == 0 &&
           aligned32(recurrent) && aligned32(state);
}

Status rnn_fused_step_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int64_t h_in, int64_t h_out) {
    FusedStep a;
    a.cell = cell, a.recurrent = recurrent, a.bias = bias, a.h_in = h_in, a.h_out = h_out, a.K = cell.P;
    switch (cell.cell) {
        case CUDNN_LSTM: return launch<4>(stream, a);
        case CUDNN_GRU: return launch<3>(stream, a);
        default: return launch<1>(stream, a);
    }
}

}  // namespace librednn::cuda
