// The backward cell of the CUDA RNN's backward-data step (rnn_backward_data.cu): the per-sequence state of the
// pass, the cell's arguments, and one unit's gate gradients at one step. (A fused step that also computed dh
// shared it: measured slower and removed, bench/results/2026-12-02-h200-fused-backward/.)
#pragma once

#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_kernels.cuh"
#include "ops/rnn/problem.hpp"

#include <cstdint>
#include <type_traits>

namespace librednn::cuda {

// The per-sequence state of this pass, at these offsets within a sequence's state: dh (projSize), R^T
// times the step's recurrent gate gradients (projSize), the previous h (projSize; GRU), dc (hidden), the
// unprojected h's gradient (hidden), the GRU's R_h h + b_Rh and z * dh (hidden each), and the step's
// recurrent gate gradients (gates * hidden).
struct BackwardState {
    int64_t dh = 0, dprev = 0, h_prev = 0, dc = 0, dfull = 0, pre_h = 0, z_dh = 0, gate_grads = 0;
};
inline BackwardState backward_state(const RnnNetwork &net) {
    const int64_t P = net.proj_size, H = net.hidden_size;
    BackwardState at;
    at.dprev = P;
    at.h_prev = 2 * P;
    at.dc = 3 * P;
    at.dfull = at.dc + H;
    at.pre_h = at.dfull + H;
    at.z_dh = at.pre_h + H;
    at.gate_grads = at.z_dh + H;
    return at;
}

template <class T, class C>
struct CellBackward {
    const int *lengths;
    int N, H, P, cell, dir, s, projection;
    int clip;  // LSTM cell clipping: the gradient stops at a c on a bound
    C lclip, rclip;
    int64_t spn;
    BackwardState at;
    C *state;
    const C *dout;  // the layer output's gradient [T][N][Y]
    int64_t out_row;
    const C *outputs;  // the layer's outputs (the reserve space)
    const C *saved;    // this pseudo-layer's forward blocks
    int64_t saved_row;
    C *grads;  // this pseudo-layer's gradient blocks
    int64_t grads_row;
    // Float compute, where backward data's W^T dG runs on the tensor memory accelerator's kernel
    // (rnn_tf32_input_gradient): its operand, the W gate gradients rounded to TF32. The cells other than the GRU
    // write it as gr, which equals gw there (round_recurrent; nothing else reads gr then: backward weights sums and
    // turns gw); the GRU into `rounded` (the workspace's piece, gates * hidden a row), not null then.
    int round_recurrent;
    C *rounded;
    const T *hx, *cx;  // this pseudo-layer's, or NULL
};

// Unit i's h before sequence n's step at time t: hx (zeros where NULL) at the sequence's first step (`first`),
// else the layer output at the time before in the direction.
template <class T, class C>
__device__ __forceinline__ C rnn_previous_h(const CellBackward<T, C> &a, int n, int i, int t, bool first) {
    if (first) return a.hx ? to_compute<C>(a.hx[static_cast<int64_t>(n) * a.P + i]) : C(0);
    const int previous = a.dir == 0 ? t - 1 : t + 1;
    return a.outputs[(static_cast<int64_t>(previous) * a.N + n) * a.out_row + static_cast<int64_t>(a.dir) * a.P + i];
}

// What the backward cell of unit i of sequence n at time t (its step s) reads besides the gradient reaching it:
// the forward's saved values (ReLU and tanh: h; LSTM: its gates, then c; GRU: its gates), the LSTM's c before
// the step and dc carried from the step after. Loaded apart from the arithmetic so that a kernel can issue every
// load of several units before it needs them.
template <class C>
struct CellBackwardInputs {
    C saved[5];
    C c_prev, dc;
};

template <class T, class C>
__device__ __forceinline__ CellBackwardInputs<C> rnn_cell_backward_inputs(const CellBackward<T, C> &a, int n, int i,
                                                                          int s, int t) {
    const int H = a.H;
    const C *saved = a.saved + (static_cast<int64_t>(t) * a.N + n) * a.saved_row;
    CellBackwardInputs<C> in{};
    const int count = a.cell == CUDNN_LSTM ? 5 : rnn_cell_gates(a.cell);
#pragma unroll
    for (int q = 0; q < 5; ++q)
        if (q < count) in.saved[q] = saved[q * H + i];
    if (a.cell == CUDNN_LSTM) {
        if (s > 0) {
            const int previous = a.dir == 0 ? t - 1 : t + 1;
            in.c_prev = a.saved[(static_cast<int64_t>(previous) * a.N + n) * a.saved_row + 4 * H + i];
        } else {
            in.c_prev = a.cx ? to_compute<C>(a.cx[static_cast<int64_t>(n) * H + i]) : C(0);
        }
        in.dc = a.state[n * a.spn + a.at.dc + i];
    }
    return in;
}

// Unit i of sequence n at time t (its step s) from its inputs `in`, dfull the gradient reaching its output (h, or
// the unprojected h with a projection): the gate gradients of the row, written to the reserve space twice (gw for
// W's products, gr for R's; they differ only in the GRU's h gate, and where gr is rounded to TF32 for backward data's
// W^T dG: round_recurrent; the GRU writes that operand to `rounded` instead) and to step_grads (the sequence's
// recurrent gradients of the step, gates * hidden) as `exchange` gives them (as they are, or rounded for a product),
// and the LSTM's dc carried to the step before (the GRU's z * dh likewise). The GRU also needs the unit's h before the
// step (h_prev) and R_h h + b_Rh (pre_h), which each caller has where its steps keep them; other cells ignore both.
template <class T, class C, class Exchange>
__device__ __forceinline__ void rnn_cell_backward_unit_from(const CellBackward<T, C> &a, int n, int i, int t, C dfull,
                                                            C *step_grads, C h_prev, C pre_h,
                                                            const CellBackwardInputs<C> &in, const Exchange &exchange) {
    const int H = a.H;
    const int64_t row = static_cast<int64_t>(t) * a.N + n;
    C *st = a.state + n * a.spn;
    C *gw = a.grads + row * a.grads_row, *gr = gw + rnn_cell_gates(a.cell) * H;
    const auto recurrent = [&](C g) {  // gr's value of a gate gradient of the cells other than the GRU
        if constexpr (std::is_same_v<C, float>) return a.round_recurrent ? tf32_rounded(g) : g;
        return g;
    };
    switch (a.cell) {
        case CUDNN_RNN_RELU: {
            const C g = in.saved[0] > C(0) ? dfull : C(0);
            gw[i] = g, gr[i] = recurrent(g), step_grads[i] = exchange(g);
            break;
        }
        case CUDNN_RNN_TANH: {
            const C g = dfull * (C(1) - in.saved[0] * in.saved[0]);
            gw[i] = g, gr[i] = recurrent(g), step_grads[i] = exchange(g);
            break;
        }
        case CUDNN_LSTM: {
            const C in_gate = in.saved[0], forget = in.saved[1], cell = in.saved[2], out_gate = in.saved[3];
            const C c = in.saved[4], tc = math_tanh(c);
            const C dct = a.clip && (c == a.lclip || c == a.rclip) ? C(0) : in.dc + dfull * out_gate * (C(1) - tc * tc);
            const C g[4] = {dct * cell * in_gate * (C(1) - in_gate), dct * in.c_prev * forget * (C(1) - forget),
                            dct * in_gate * (C(1) - cell * cell), dfull * tc * out_gate * (C(1) - out_gate)};
#pragma unroll
            for (int k = 0; k < 4; ++k)
                gw[k * H + i] = g[k], gr[k * H + i] = recurrent(g[k]), step_grads[k * H + i] = exchange(g[k]);
            st[a.at.dc + i] = dct * forget;
            break;
        }
        default: {
            const C reset = in.saved[0], update = in.saved[1], candidate = in.saved[2];
            const C dcandidate = dfull * (C(1) - update) * (C(1) - candidate * candidate);
            const C g[2] = {dcandidate * pre_h * reset * (C(1) - reset),
                            dfull * (h_prev - candidate) * update * (C(1) - update)};
#pragma unroll
            for (int k = 0; k < 2; ++k)
                gw[k * H + i] = g[k], gr[k * H + i] = g[k], step_grads[k * H + i] = exchange(g[k]);
            gw[2 * H + i] = dcandidate;
            gr[2 * H + i] = dcandidate * reset;
            if constexpr (std::is_same_v<C, float>) {
                if (a.rounded != nullptr) {
                    C *rounded = a.rounded + row * 3 * H;
                    rounded[i] = tf32_rounded(g[0]), rounded[H + i] = tf32_rounded(g[1]);
                    rounded[2 * H + i] = tf32_rounded(dcandidate);
                }
            }
            step_grads[2 * H + i] = exchange(dcandidate * reset);
            st[a.at.z_dh + i] = dfull * update;
            break;
        }
    }
}

// The same with its inputs loaded first and the recurrent gradients written as they are.
template <class T, class C>
__device__ __forceinline__ void rnn_cell_backward_unit(const CellBackward<T, C> &a, int n, int i, int s, int t, C dfull,
                                                       C *step_grads, C h_prev, C pre_h) {
    rnn_cell_backward_unit_from(a, n, i, t, dfull, step_grads, h_prev, pre_h, rnn_cell_backward_inputs(a, n, i, s, t),
                                [](C value) { return value; });
}

}  // namespace librednn::cuda
