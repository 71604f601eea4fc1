// What the fused forward step's kernels share (rnn_fused_step.cu: FP32 and mma.sync TF32; rnn_fused_step_wgmma.cu:
// wgmma, sm_90a): the launch's arguments and the cells' part of a pass, their inputs loaded before the products.
#pragma once

#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_cell_forward.cuh"

#include <cstdint>

namespace librednn::cuda::fused_step {

constexpr int kWarps = 8;  // warps per block

struct FusedStep {
    CellForward<float> cell;
    const float *recurrent;  // [gates * H][K]
    const float *bias;       // [gates * H] or NULL
    int64_t h_in, h_out;     // step cell.s's buffers; later steps of a persistent launch alternate them
    int64_t r_in, r_out;     // a persistent TF32 launch: h rounded to TF32 beside h_in and h_out (state offsets)
    int K;
    int steps;  // steps cell.s .. cell.s + steps - 1: 1, or all of them in a persistent (cooperative) launch
};

// What a finish_pass_loaded thread's cells need besides R h (W x + b_W and b_R of each gate, h and the LSTM's c
// before the step, the time), loaded before the products so that their latency (W x + b_W comes from DRAM, the
// others from L2) hides behind them instead of following them. Item k of a
// thread is unit e % kUnits of sequence first + e / kUnits (e = thread + k x the block's threads): neighbouring
// threads take neighbouring units of one sequence, so that each global access of the cell (W x + b_W, h, c, the
// reserve's saved values, the layer output) covers kUnits floats of a row in one or two sectors, where one
// sequence a thread touched a sector each; the sums' reads, sums[q kUnits + u][j], still fall in 32 banks.
template <int kGates, int kUnits, int kColumns>
struct CellInputs {
    static constexpr int kItems = (kUnits * kColumns + kWarps * 32 - 1) / (kWarps * 32);
    float gx[kItems][kGates], bias[kItems][kGates], h_before[kItems], c_before[kGates == 4 ? kItems : 1];
    int t[kItems];
};

template <int kGates, int kUnits, int kColumns>
__device__ __forceinline__ void load_cell_inputs(const FusedStep &a, int unit0, int first, int s, int64_t h_in,
                                                 CellInputs<kGates, kUnits, kColumns> &in) {
    const CellForward<float> &cell = a.cell;
    const int H = cell.H, N = cell.N;
#pragma unroll
    for (int k = 0; k < in.kItems; ++k) {
        const int e = static_cast<int>(threadIdx.x) + k * kWarps * 32;
        const int u = e % kUnits, j = e / kUnits, n = first + j, i = unit0 + u;
        in.t[k] = -1;
        if (e >= kUnits * kColumns || n >= N || i >= H) continue;
        in.t[k] = rnn_step_time(cell.lengths, n, cell.dir, s);
        in.h_before[k] = cell.state[n * cell.spn + h_in + i];
        if (in.t[k] < 0) continue;
        if constexpr (kGates == 4) in.c_before[k] = cell.state[n * cell.spn + cell.at.c + i];
#pragma unroll
        for (int q = 0; q < kGates; ++q) in.bias[k][q] = a.bias ? a.bias[q * H + i] : 0.0f;
        const float *gx = cell.gates + (static_cast<int64_t>(in.t[k]) * N + n) * kGates * H + i;
#pragma unroll
        for (int q = 0; q < kGates; ++q) in.gx[k][q] = gx[q * H];
    }
}

// finish_pass with the inputs load_cell_inputs loaded (the same threads and items). With r_out >= 0 each new h also
// goes, rounded to TF32, to offset r_out of the state.
template <int kGates, int kUnits, int kColumns, class Sum>
__device__ __forceinline__ void finish_pass_loaded(const FusedStep &a, int unit0, int first, int64_t h_out,
                                                   int64_t r_out, const CellInputs<kGates, kUnits, kColumns> &in,
                                                   const Sum &sum) {
    const CellForward<float> &cell = a.cell;
    const int H = cell.H, N = cell.N;
#pragma unroll
    for (int k = 0; k < in.kItems; ++k) {
        const int e = static_cast<int>(threadIdx.x) + k * kWarps * 32;
        const int u = e % kUnits, j = e / kUnits, n = first + j, i = unit0 + u;
        if (e >= kUnits * kColumns || n >= N || i >= H) continue;
        float *st = cell.state + n * cell.spn;
        const int t = in.t[k];
        if (t < 0) {
            st[h_out + i] = in.h_before[k];  // no step s: h carries over to the other buffer
            if (r_out >= 0) st[r_out + i] = tf32_rounded(in.h_before[k]);
            continue;
        }
        const auto pre = [&](int q) { return sum(q, u, j, in.bias[k][q]); };
        const float *c_before = nullptr;
        if constexpr (kGates == 4) c_before = &in.c_before[k];
        float value = 0.0f;
        rnn_cell_forward_unit_from(
            cell, n, i, t, [&](int q) { return in.gx[k][q]; }, pre, in.h_before[k], &value, c_before);
        st[h_out + i] = value;
        if (r_out >= 0) st[r_out + i] = tf32_rounded(value);
        cell.out[(static_cast<int64_t>(t) * N + n) * cell.out_row + static_cast<int64_t>(cell.dir) * cell.P + i] =
            value;
    }
}

}  // namespace librednn::cuda::fused_step
