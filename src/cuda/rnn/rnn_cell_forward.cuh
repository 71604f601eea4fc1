// The forward cell of the CUDA RNN, shared by the step that reads R h + b_R from the state
// (rnn_forward.cu) and the fused step that computes it in the same kernel (rnn_fused_step.cu): the
// per-sequence state's layout, the cell's arguments and one unit's cell at one step.
#pragma once

#include "cuda/rnn/rnn_kernels.cuh"
#include "ops/rnn/problem.hpp"

#include <cstdint>

namespace librednn::cuda {

// The per-sequence state of the forward pass, at these offsets within a sequence's state: h (projSize),
// the projected new h (projSize), c (hidden), the unprojected h (hidden), R h + b_R (gates * hidden).
// Without a projection the fused step uses h and h_new as two buffers, one read and one written per step.
struct ForwardState {
    int64_t h = 0, h_new = 0, c = 0, full = 0, pre = 0;
};
inline ForwardState forward_state(const RnnNetwork &net) {
    ForwardState at;
    at.h_new = net.proj_size;
    at.c = 2 * static_cast<int64_t>(net.proj_size);
    at.full = at.c + net.hidden_size;
    at.pre = at.full + net.hidden_size;
    return at;
}

template <class C>
struct CellForward {
    const int *lengths;
    int N, H, P, cell, dir, s, projection;
    int clip, clip_propagate_nan;  // LSTM cell clipping into [lclip, rclip]
    C lclip, rclip;
    int64_t spn;  // state elements per sequence
    ForwardState at;
    const C *gates;  // [T][N][gates * hidden]: W x + b_W
    C *state;
    C *out;  // the layer output [T][N][Y]; this direction's part starts at column dir * P
    int64_t out_row;
    C *saved;  // this pseudo-layer's reserve blocks (training), else NULL
    int64_t saved_row;
};

template <class C>
__device__ __forceinline__ C rnn_sigmoid(C v) {
    return C(1) / (C(1) + math_exp(-v));
}

// Unit i of sequence n at time t (its step s): the cell from gate q's W x + b_W (gx(q)) and R h + b_R (pre(q))
// and the unit's h before the step; keeps c and, in training, the saved values. Returns false with a
// projection, where the unprojected h went to the state and the projection's product makes h; else true with
// the new h in *h. `c_before`: the LSTM's c before the step where the caller loaded it already, else NULL (read
// from the state here).
template <class C, class Gx, class Pre>
__device__ __forceinline__ bool rnn_cell_forward_unit_from(const CellForward<C> &a, int n, int i, int t, const Gx &gx,
                                                           const Pre &pre, C h_before, C *h,
                                                           const C *c_before = nullptr) {
    const int H = a.H;
    const int64_t row = static_cast<int64_t>(t) * a.N + n;
    C *st = a.state + n * a.spn;
    C *saved = a.saved ? a.saved + row * a.saved_row : nullptr;
    switch (a.cell) {
        case CUDNN_RNN_RELU: {
            const C v = gx(0) + pre(0);
            *h = C(0) < v ? v : C(0);
            if (saved) saved[i] = *h;
            return true;
        }
        case CUDNN_RNN_TANH:
            *h = math_tanh(gx(0) + pre(0));
            if (saved) saved[i] = *h;
            return true;
        case CUDNN_LSTM: {
            const C in_gate = rnn_sigmoid(gx(0) + pre(0)), forget = rnn_sigmoid(gx(1) + pre(1));
            const C cell = math_tanh(gx(2) + pre(2));
            const C out_gate = rnn_sigmoid(gx(3) + pre(3));
            C c = forget * (c_before ? *c_before : st[a.at.c + i]) + in_gate * cell;
            if (a.clip) c = c != c ? (a.clip_propagate_nan ? c : a.lclip) : fmin(fmax(c, a.lclip), a.rclip);
            st[a.at.c + i] = c;
            const C value = out_gate * math_tanh(c);
            if (saved)
                saved[i] = in_gate, saved[H + i] = forget, saved[2 * H + i] = cell, saved[3 * H + i] = out_gate,
                saved[4 * H + i] = c;
            if (a.projection) {
                st[a.at.full + i] = value;
                if (saved) saved[5 * H + i] = value;
                return false;  // the projection's product and take_projected_kernel write h
            }
            *h = value;
            return true;
        }
        default: {
            const C reset = rnn_sigmoid(gx(0) + pre(0)), update = rnn_sigmoid(gx(1) + pre(1));
            const C candidate = math_tanh(gx(2) + reset * pre(2));
            *h = (C(1) - update) * candidate + update * h_before;
            if (saved) saved[i] = reset, saved[H + i] = update, saved[2 * H + i] = candidate;
            return true;
        }
    }
}

// The same with W x + b_W read from a.gates ([T][N][gates * hidden]).
template <class C, class Pre>
__device__ __forceinline__ bool rnn_cell_forward_unit(const CellForward<C> &a, int n, int i, int t, const Pre &pre,
                                                      C h_before, C *h) {
    const int H = a.H;
    const C *gx = a.gates + (static_cast<int64_t>(t) * a.N + n) * rnn_cell_gates(a.cell) * H + i;
    return rnn_cell_forward_unit_from(
        a, n, i, t, [&](int q) { return gx[q * H]; }, pre, h_before, h);
}

}  // namespace librednn::cuda
