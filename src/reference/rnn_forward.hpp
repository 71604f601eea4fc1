// The reference RNN forward pass (reference/rnn.hpp) over any number type: rnn.cpp runs it in double; the RNN
// tests run it over intervals to bound, element by element, how far a backend's float arithmetic may stray
// from it (tests/ops/rnn_error_bound.hpp). One body, so the two cannot disagree about what an RNN computes.
//
// Num: constructible from double; +, - and * between two Nums (a double operand converts). Ops:
//   product(kind, matrix, rows, v): the matrix (rows x v.size(), row-major doubles) times v; kind is
//       RnnProduct::input (W x, every step's at once), recurrent (R h) or projection (P h)
//   sigmoid(v), tanh(v), relu(v): max(0, v)
//   clip(c, config): the LSTM cell clipping of c (config.clip is set)
#pragma once

#include "core/status.hpp"
#include "reference/rnn.hpp"

#include <cstddef>
#include <utility>
#include <vector>

namespace librednn::reference {

enum class RnnProduct { input, recurrent, projection };

// What one step of one sequence computed, for a backward pass (rnn_backward.hpp): pseudo-layer pl, sequence n,
// time t; the layer input, h and c before the step, the gates after their activations (LSTM i, f, g, o; GRU r,
// z, h~; the others the new unprojected h), the GRU's R_h h + b_Rh, the LSTM's c before and after clipping, and
// the unprojected h.
template <class Num>
struct RnnStepTrace {
    int pl = 0, n = 0, t = 0;
    std::vector<Num> in, h_prev, c_prev, c_unclipped, c, full, rh_h;
    std::vector<std::vector<Num>> gates;
};

template <class Num, class Ops>
Status rnn_forward_over(const Ops &ops, const RnnConfig &cfg, const RnnWeights &w, int max_seq_length,
                        const std::vector<int> &lengths, const std::vector<Num> &x, const std::vector<Num> &hx,
                        const std::vector<Num> &cx, const Num &fill, std::vector<Num> *y, std::vector<Num> *hy,
                        std::vector<Num> *cy, const std::vector<double> &dropout,
                        std::vector<RnnStepTrace<Num>> *trace = nullptr) {
    using Vector = std::vector<Num>;
    const int dirs = cfg.bidirectional ? 2 : 1, pseudo_layers = cfg.layers * dirs;
    const int g = cfg.cell == CUDNN_LSTM ? 4 : cfg.cell == CUDNN_GRU ? 3 : 1;
    const int H = cfg.hidden_size, P = cfg.proj_size, N = static_cast<int>(lengths.size()), T = max_seq_length;
    const bool lstm = cfg.cell == CUDNN_LSTM;
    const auto count = [](int a, int b, int c) { return static_cast<size_t>(a) * b * c; };
    if (x.size() != count(T, N, cfg.input_size))
        return fail(CUDNN_STATUS_BAD_PARAM, "x holds %zu values, expected T x N x inputSize", x.size());
    if (!hx.empty() && hx.size() != count(pseudo_layers, N, P))
        return fail(CUDNN_STATUS_BAD_PARAM, "hx holds %zu values", hx.size());
    if (!cx.empty() && cx.size() != count(pseudo_layers, N, H))
        return fail(CUDNN_STATUS_BAD_PARAM, "cx holds %zu values", cx.size());
    if (w.matrices.size() != static_cast<size_t>(pseudo_layers) || w.biases.size() != w.matrices.size())
        return fail(CUDNN_STATUS_BAD_PARAM, "weights for %zu pseudo-layers, expected %d", w.matrices.size(),
                    pseudo_layers);
    if (!dropout.empty() && dropout.size() != count(cfg.layers - 1, T, N * P * dirs))
        return fail(CUDNN_STATUS_BAD_PARAM, "dropout holds %zu factors, expected (layers - 1) x T x N x Y",
                    dropout.size());

    // matrix times v, or v itself where the matrix is absent (CUDNN_SKIP_INPUT); plus a bias where there is one.
    const auto times = [&](RnnProduct kind, const std::vector<double> &matrix, int rows, const Vector &v) {
        return matrix.empty() ? v : ops.product(kind, matrix, rows, v);
    };
    const auto plus = [](Vector a, const std::vector<double> &bias) {
        if (!bias.empty())
            for (size_t i = 0; i < a.size(); ++i) a[i] = a[i] + Num(bias[i]);
        return a;
    };
    Vector input = x;
    int input_size = cfg.input_size;
    hy->assign(count(pseudo_layers, N, P), Num(0.0));
    cy->assign(count(pseudo_layers, N, H), Num(0.0));
    Vector output;
    for (int layer = 0; layer < cfg.layers; ++layer) {
        output.assign(count(T, N, P * dirs), fill);
        for (int dir = 0; dir < dirs; ++dir) {
            const int pl = layer * dirs + dir;
            const auto &m = w.matrices[static_cast<size_t>(pl)];
            const auto &b = w.biases[static_cast<size_t>(pl)];
            const auto bias = [&](int id) -> const std::vector<double> & { return b[static_cast<size_t>(id)]; };
            const auto matrix = [&](int id) -> const std::vector<double> & { return m[static_cast<size_t>(id)]; };
            for (int n = 0; n < N; ++n) {
                Vector h(static_cast<size_t>(P), Num(0.0)), c(static_cast<size_t>(H), Num(0.0));
                if (!hx.empty())
                    for (int i = 0; i < P; ++i) h[i] = hx[(static_cast<size_t>(pl) * N + n) * P + i];
                if (!cx.empty() && lstm)
                    for (int i = 0; i < H; ++i) c[i] = cx[(static_cast<size_t>(pl) * N + n) * H + i];
                const int length = lengths[static_cast<size_t>(n)];
                for (int s = 0; s < length; ++s) {
                    const int t = dir == 0 ? s : length - 1 - s;
                    const Vector in(
                        input.begin() + static_cast<std::ptrdiff_t>((static_cast<size_t>(t) * N + n) * input_size),
                        input.begin() + static_cast<std::ptrdiff_t>((static_cast<size_t>(t) * N + n + 1) * input_size));
                    // wx[k] = W_k x + b_Wk, rh[k] = R_k h + b_Rk.
                    std::vector<Vector> wx(static_cast<size_t>(g)), rh(static_cast<size_t>(g));
                    for (int k = 0; k < g; ++k) {
                        wx[k] = plus(times(RnnProduct::input, matrix(k), H, in), bias(k));
                        rh[k] = plus(times(RnnProduct::recurrent, matrix(g + k), H, h), bias(g + k));
                    }
                    Vector next(static_cast<size_t>(H));
                    RnnStepTrace<Num> step;
                    if (trace != nullptr) {
                        step.pl = pl, step.n = n, step.t = t, step.in = in, step.h_prev = h, step.c_prev = c;
                        step.gates.assign(static_cast<size_t>(g), Vector(static_cast<size_t>(H)));
                        step.c_unclipped.resize(static_cast<size_t>(H));
                        if (cfg.cell == CUDNN_GRU) step.rh_h = rh[2];
                    }
                    for (int i = 0; i < H; ++i) {
                        if (cfg.cell == CUDNN_RNN_RELU) {
                            next[i] = ops.relu(wx[0][i] + rh[0][i]);
                            if (trace != nullptr) step.gates[0][i] = next[i];
                        } else if (cfg.cell == CUDNN_RNN_TANH) {
                            next[i] = ops.tanh(wx[0][i] + rh[0][i]);
                            if (trace != nullptr) step.gates[0][i] = next[i];
                        } else if (lstm) {
                            const Num ig = ops.sigmoid(wx[0][i] + rh[0][i]), fg = ops.sigmoid(wx[1][i] + rh[1][i]);
                            const Num gg = ops.tanh(wx[2][i] + rh[2][i]), og = ops.sigmoid(wx[3][i] + rh[3][i]);
                            c[i] = fg * c[i] + ig * gg;
                            if (trace != nullptr) step.c_unclipped[i] = c[i];
                            if (cfg.clip) c[i] = ops.clip(c[i], cfg);
                            next[i] = og * ops.tanh(c[i]);
                            if (trace != nullptr)
                                step.gates[0][i] = ig, step.gates[1][i] = fg, step.gates[2][i] = gg,
                                step.gates[3][i] = og;
                        } else {
                            const Num r = ops.sigmoid(wx[0][i] + rh[0][i]), z = ops.sigmoid(wx[1][i] + rh[1][i]);
                            const Num candidate = ops.tanh(wx[2][i] + r * rh[2][i]);
                            next[i] = (Num(1.0) - z) * candidate + z * h[i];
                            if (trace != nullptr)
                                step.gates[0][i] = r, step.gates[1][i] = z, step.gates[2][i] = candidate;
                        }
                    }
                    if (trace != nullptr) {
                        step.c = c, step.full = next;
                        trace->push_back(std::move(step));
                    }
                    h = P < H ? times(RnnProduct::projection, matrix(2 * g), P, next) : next;
                    for (int i = 0; i < P; ++i)
                        output[(static_cast<size_t>(t) * N + n) * P * dirs + dir * P + i] = h[i];
                }
                for (int i = 0; i < P; ++i) (*hy)[(static_cast<size_t>(pl) * N + n) * P + i] = h[i];
                if (lstm)
                    for (int i = 0; i < H; ++i) (*cy)[(static_cast<size_t>(pl) * N + n) * H + i] = c[i];
            }
        }
        input = output;
        input_size = P * dirs;
        if (!dropout.empty() && layer + 1 < cfg.layers)
            for (size_t e = 0; e < input.size(); ++e)
                input[e] = input[e] * Num(dropout[static_cast<size_t>(layer) * input.size() + e]);
    }
    *y = output;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
