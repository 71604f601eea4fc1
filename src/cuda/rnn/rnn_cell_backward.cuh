// The backward cell of the CUDA RNN's backward-data step (rnn_backward_data.cu): the per-sequence state of the
// pass, the cell's arguments, and one unit's gate gradients at one step. (A fused step that also computed dh
// shared it: measured slower and removed, bench/results/2026-12-02-h200-fused-backward/.)
#pragma once

#include "cuda/rnn/rnn_kernels.cuh"
#include "ops/rnn/problem.hpp"

#include <cstdint>

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

// Unit i of sequence n at time t (its step s), dfull the gradient reaching its output (h, or the unprojected h
// with a projection): the gate gradients of the row, written to the reserve space twice (gw for W's products, gr
// for R's; they differ only in the GRU's h gate) and to step_grads (the sequence's recurrent gradients of the step,
// gates * hidden), and the LSTM's dc carried to the step before (the GRU's z * dh likewise). The GRU also needs the
// unit's h before the step (h_prev) and R_h h + b_Rh (pre_h), which each caller has where its steps keep them; other
// cells ignore both.
template <class T, class C>
__device__ __forceinline__ void rnn_cell_backward_unit(const CellBackward<T, C> &a, int n, int i, int s, int t, C dfull,
                                                       C *step_grads, C h_prev, C pre_h) {
    const int H = a.H;
    const int64_t row = static_cast<int64_t>(t) * a.N + n;
    const int gates = rnn_cell_gates(a.cell);
    C *st = a.state + n * a.spn;
    const C *saved = a.saved + row * a.saved_row;
    C *gw = a.grads + row * a.grads_row, *gr = gw + gates * H;
    switch (a.cell) {
        case CUDNN_RNN_RELU: gw[i] = saved[i] > C(0) ? dfull : C(0); break;
        case CUDNN_RNN_TANH: gw[i] = dfull * (C(1) - saved[i] * saved[i]); break;
        case CUDNN_LSTM: {
            const C in_gate = saved[i], forget = saved[H + i], cell = saved[2 * H + i], out_gate = saved[3 * H + i];
            const C tc = math_tanh(saved[4 * H + i]);
            C c_prev;
            if (s > 0) {
                const int previous = a.dir == 0 ? t - 1 : t + 1;
                c_prev = a.saved[(static_cast<int64_t>(previous) * a.N + n) * a.saved_row + 4 * H + i];
            } else {
                c_prev = a.cx ? to_compute<C>(a.cx[static_cast<int64_t>(n) * H + i]) : C(0);
            }
            C &dc = st[a.at.dc + i];
            const C c = saved[4 * H + i];
            const C dct = a.clip && (c == a.lclip || c == a.rclip) ? C(0) : dc + dfull * out_gate * (C(1) - tc * tc);
            gw[i] = dct * cell * in_gate * (C(1) - in_gate);
            gw[H + i] = dct * c_prev * forget * (C(1) - forget);
            gw[2 * H + i] = dct * in_gate * (C(1) - cell * cell);
            gw[3 * H + i] = dfull * tc * out_gate * (C(1) - out_gate);
            dc = dct * forget;
            break;
        }
        default: {
            const C reset = saved[i], update = saved[H + i], candidate = saved[2 * H + i];
            const C pre = pre_h;
            const C dcandidate = dfull * (C(1) - update) * (C(1) - candidate * candidate);
            gw[i] = dcandidate * pre * reset * (C(1) - reset);
            gw[H + i] = dfull * (h_prev - candidate) * update * (C(1) - update);
            gw[2 * H + i] = dcandidate;
            gr[2 * H + i] = dcandidate * reset;
            step_grads[2 * H + i] = dcandidate * reset;
            st[a.at.z_dh + i] = dfull * update;
            break;
        }
    }
    for (int k = 0; k < gates; ++k) {
        if (a.cell == CUDNN_GRU && k == 2) continue;
        gr[k * H + i] = gw[k * H + i];
        step_grads[k * H + i] = gw[k * H + i];
    }
}

}  // namespace librednn::cuda
