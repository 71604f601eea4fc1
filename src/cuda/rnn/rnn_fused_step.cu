// The fused forward step of the CUDA RNN (rnn_fused_step.hpp).
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_fused_step.hpp"

#include <cstdlib>
#include <cstring>

namespace librednn::cuda {

namespace {

// Hidden units per block: gates * kUnits rows of R. 8 from kWideTileHidden units (H / 8 blocks fill the
// H200's 132 SMs about once), else 4 (twice the blocks, each reading h once more).
constexpr int kWideTileHidden = 768;
constexpr int kWarps = 8;  // warps per block, each a part of the sum over k
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

// Block b: units [kUnits b, kUnits (b + 1)). Lane l of each warp takes sequence l (and l + 32 when kColumns is 64) of
// each pass over the batch; warp w sums its part of k, eight at a time. The warps' sums meet in shared memory in a
// fixed order (w + w + 4, then the four pairs in order), so that the result does not depend on scheduling.
template <int kGates, int kUnits, int kColumns>
__global__ void __launch_bounds__(kWarps * 32) fused_step_kernel(const __grid_constant__ FusedStep a) {
    constexpr int kRows = kGates * kUnits, kPerLane = kColumns / 32;
    __shared__ float partial[kHalves][kRows][kColumns];
    const CellForward<float> &cell = a.cell;
    const int warp = static_cast<int>(threadIdx.x) / 32, lane = static_cast<int>(threadIdx.x) % 32;
    const int H = cell.H, N = cell.N, unit0 = static_cast<int>(blockIdx.x) * kUnits;
    const int chunks = a.K / 8, per_warp = (chunks + kWarps - 1) / kWarps;
    const int chunk_begin = min(chunks, warp * per_warp), chunk_end = min(chunks, chunk_begin + per_warp);
    const float *rows[kRows];
#pragma unroll
    for (int r = 0; r < kRows; ++r) {
        const int unit = min(H - 1, unit0 + r % kUnits);  // a unit past H reads a valid row; its result is unused
        rows[r] = a.recurrent + (static_cast<int64_t>(r / kUnits) * H + unit) * a.K;
    }
    for (int first = 0; first < N; first += kColumns) {
        float acc[kRows][kPerLane];
#pragma unroll
        for (int r = 0; r < kRows; ++r)
#pragma unroll
            for (int c = 0; c < kPerLane; ++c) acc[r][c] = 0.0f;
        const float *h[kPerLane];
#pragma unroll
        for (int c = 0; c < kPerLane; ++c) {
            const int n = min(N - 1, first + lane + 32 * c);  // a sequence past N reads a valid row, unused
            h[c] = cell.state + n * cell.spn + a.h_in;
        }
        for (int chunk = chunk_begin; chunk < chunk_end; ++chunk) {
            float4 h0[kPerLane], h1[kPerLane];
#pragma unroll
            for (int c = 0; c < kPerLane; ++c) {
                h0[c] = __ldg(reinterpret_cast<const float4 *>(h[c] + 8 * chunk));
                h1[c] = __ldg(reinterpret_cast<const float4 *>(h[c] + 8 * chunk + 4));
            }
#pragma unroll
            for (int r = 0; r < kRows; ++r) {
                const float4 w0 = __ldg(reinterpret_cast<const float4 *>(rows[r] + 8 * chunk));
                const float4 w1 = __ldg(reinterpret_cast<const float4 *>(rows[r] + 8 * chunk + 4));
#pragma unroll
                for (int c = 0; c < kPerLane; ++c) acc[r][c] = dot8(w0, w1, h0[c], h1[c], acc[r][c]);
            }
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

template <int kGates, int kUnits>
void launch(cudaStream_t stream, const FusedStep &a) {
    const int blocks = (a.cell.H + kUnits - 1) / kUnits;
    if (a.cell.N > 32)
        fused_step_kernel<kGates, kUnits, 64><<<blocks, kWarps * 32, 0, stream>>>(a);
    else
        fused_step_kernel<kGates, kUnits, 32><<<blocks, kWarps * 32, 0, stream>>>(a);
}

template <int kGates>
void launch(cudaStream_t stream, const FusedStep &a) {
    if (a.cell.H >= kWideTileHidden)
        launch<kGates, 8>(stream, a);
    else
        launch<kGates, 4>(stream, a);
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
           !net.projection() && net.hidden_size % 8 == 0 && state_per_sequence % 8 == 0 && aligned32(recurrent) &&
           aligned32(state);
}

Status rnn_fused_step_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int64_t h_in, int64_t h_out) {
    FusedStep a;
    a.cell = cell, a.recurrent = recurrent, a.bias = bias, a.h_in = h_in, a.h_out = h_out, a.K = cell.P;
    switch (cell.cell) {
        case CUDNN_LSTM: launch<4>(stream, a); break;
        case CUDNN_GRU: launch<3>(stream, a); break;
        default: launch<1>(stream, a); break;
    }
    return check_launch("fused_step_kernel");
}

}  // namespace librednn::cuda
