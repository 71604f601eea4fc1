// The reference RNN backward pass over any number type (reference/rnn.hpp's rnn_backward runs it in double):
// backpropagation through time of rnn_forward_over (rnn_forward.hpp), whose trace gives each step's values. The
// gradients are those of L = sum dy . y + sum dhy . hy + sum dcy . cy with respect to x, hx, cx and every weight
// and bias, as cuDNN's backward data and backward weights calls return them (dhx, dcx for every pseudo-layer; a
// clipped LSTM cell state passes no gradient, as the library's backends define it: c at lclip or rclip).
//
// Ops: rnn_forward_over's, and
//   transposed(kind, matrix, rows, v): the matrix (rows x cols, row-major doubles) transposed times v (rows): the
//       gates' matrices come stacked (gates x hidden rows), one sum over all their rows, as the backends take it
//   outer_add(kind, sums, left, right, count): sums (left.size() x right.size(), row-major) += left right^T, one
//       step's terms of a weight gradient that sums `count` of them (kind as for that matrix's products)
//   sum_add(sums, v, count): sums += v, one step's terms of a bias gradient that sums `count` of them
//   relu_slope(h): 1 where a ReLU output h passes its gradient (h > 0), else 0
//   clip_pass(c_unclipped, c, config): 0 where an LSTM cell state c sits at a clipping bound (the gradient stops;
//       c_unclipped: the state before clipping), else 1
#pragma once

#include "reference/rnn_forward.hpp"

#include <cstddef>
#include <vector>

namespace librednn::reference {

// Gradients shaped as RnnWeights: matrices[pseudo_layer][linLayerID], biases likewise, empty where absent.
template <class Num>
struct RnnWeightGradients {
    std::vector<std::vector<std::vector<Num>>> matrices, biases;
};

template <class Num, class Ops>
Status rnn_backward_over(const Ops &ops, const RnnConfig &cfg, const RnnWeights &w, int max_seq_length,
                         const std::vector<int> &lengths, const std::vector<Num> &x, const std::vector<Num> &hx,
                         const std::vector<Num> &cx, const std::vector<Num> &dy, const std::vector<Num> &dhy,
                         const std::vector<Num> &dcy, std::vector<Num> *dx, std::vector<Num> *dhx,
                         std::vector<Num> *dcx, RnnWeightGradients<Num> *dw, const std::vector<double> &dropout) {
    using Vector = std::vector<Num>;
    const int dirs = cfg.bidirectional ? 2 : 1, pseudo_layers = cfg.layers * dirs;
    const int g = cfg.cell == CUDNN_LSTM ? 4 : cfg.cell == CUDNN_GRU ? 3 : 1;
    const int H = cfg.hidden_size, P = cfg.proj_size, N = static_cast<int>(lengths.size()), T = max_seq_length;
    const size_t Y = static_cast<size_t>(P) * dirs;
    if (dy.size() != static_cast<size_t>(T) * N * Y)
        return fail(CUDNN_STATUS_BAD_PARAM, "dy holds %zu values, expected T x N x projSize x directions", dy.size());
    if (!dhy.empty() && dhy.size() != static_cast<size_t>(pseudo_layers) * N * P)
        return fail(CUDNN_STATUS_BAD_PARAM, "dhy holds %zu values", dhy.size());
    if (!dcy.empty() && dcy.size() != static_cast<size_t>(pseudo_layers) * N * H)
        return fail(CUDNN_STATUS_BAD_PARAM, "dcy holds %zu values", dcy.size());
    std::vector<Num> y, hy, cy;
    std::vector<RnnStepTrace<Num>> trace;
    const Status forward =
        rnn_forward_over<Num>(ops, cfg, w, max_seq_length, lengths, x, hx, cx, Num(0.0), &y, &hy, &cy, dropout, &trace);
    if (forward != CUDNN_STATUS_SUCCESS) return forward;
    std::vector<const RnnStepTrace<Num> *> at(static_cast<size_t>(pseudo_layers) * N * T, nullptr);
    for (const RnnStepTrace<Num> &step : trace) at[(static_cast<size_t>(step.pl) * N + step.n) * T + step.t] = &step;

    dw->matrices.assign(static_cast<size_t>(pseudo_layers), {});
    dw->biases.assign(static_cast<size_t>(pseudo_layers), {});
    for (int pl = 0; pl < pseudo_layers; ++pl) {
        for (const auto &m : w.matrices[static_cast<size_t>(pl)])
            dw->matrices[pl].push_back(Vector(m.size(), Num(0.0)));
        for (const auto &b : w.biases[static_cast<size_t>(pl)]) dw->biases[pl].push_back(Vector(b.size(), Num(0.0)));
    }
    dhx->assign(static_cast<size_t>(pseudo_layers) * N * P, Num(0.0));
    dcx->assign(static_cast<size_t>(pseudo_layers) * N * H, Num(0.0));
    // The gates' matrices stacked (gates x hidden rows) for the transposed products, per pseudo-layer: W (when
    // present) and R.
    const auto stacked = [&](int pl, int first) {
        std::vector<double> all;
        for (int k = 0; k < g; ++k) {
            const auto &m = w.matrices[static_cast<size_t>(pl)][static_cast<size_t>(first + k)];
            all.insert(all.end(), m.begin(), m.end());
        }
        return all;
    };
    const auto concatenated = [](const std::vector<Vector> &parts) {
        Vector all;
        for (const Vector &part : parts) all.insert(all.end(), part.begin(), part.end());
        return all;
    };

    Vector d_out = dy;  // the gradient of the current layer's output, [T][N][Y]
    for (int layer = cfg.layers - 1; layer >= 0; --layer) {
        const int width = layer == 0 ? cfg.input_size : static_cast<int>(Y);
        Vector d_in(static_cast<size_t>(T) * N * width, Num(0.0));
        for (int dir = 0; dir < dirs; ++dir) {
            const int pl = layer * dirs + dir;
            const auto &m = w.matrices[static_cast<size_t>(pl)];
            auto &dm = dw->matrices[static_cast<size_t>(pl)];
            auto &db = dw->biases[static_cast<size_t>(pl)];
            const bool skip = m[0].empty();  // CUDNN_SKIP_INPUT: W x is x
            const std::vector<double> w_all = skip ? std::vector<double>() : stacked(pl, 0), r_all = stacked(pl, g);
            int count = 0;  // the steps of this pseudo-layer: the terms each weight gradient sums
            for (int n = 0; n < N; ++n) count += lengths[static_cast<size_t>(n)];
            for (int n = 0; n < N; ++n) {
                Vector dh(static_cast<size_t>(P), Num(0.0)), dc(static_cast<size_t>(H), Num(0.0));
                const size_t state = static_cast<size_t>(pl) * N + n;
                if (!dhy.empty())
                    for (int i = 0; i < P; ++i) dh[i] = dhy[state * P + i];
                if (!dcy.empty() && cfg.cell == CUDNN_LSTM)
                    for (int i = 0; i < H; ++i) dc[i] = dcy[state * H + i];
                const int length = lengths[static_cast<size_t>(n)];
                for (int s = length - 1; s >= 0; --s) {
                    const int t = dir == 0 ? s : length - 1 - s;
                    const RnnStepTrace<Num> &st = *at[state * T + t];
                    for (int i = 0; i < P; ++i)
                        dh[i] = dh[i] + d_out[(static_cast<size_t>(t) * N + n) * Y + static_cast<size_t>(dir) * P + i];
                    Vector dfull = dh;
                    if (P < H) {
                        dfull = ops.transposed(RnnProduct::projection, m[static_cast<size_t>(2 * g)], P, dh);
                        ops.outer_add(RnnProduct::projection, dm[static_cast<size_t>(2 * g)], dh, st.full, count);
                    }
                    // gw[k]: the gradient of gate k's W x + b_W; gr[k] of its R h + b_R (they differ only in the
                    // GRU's h gate, by the factor r); direct: the GRU's z h term's gradient of the previous h.
                    std::vector<Vector> gw(static_cast<size_t>(g), Vector(static_cast<size_t>(H), Num(0.0)));
                    Vector direct;
                    for (int i = 0; i < H; ++i) {
                        const auto &a = st.gates;
                        if (cfg.cell == CUDNN_RNN_RELU) {
                            gw[0][i] = dfull[i] * ops.relu_slope(a[0][i]);
                        } else if (cfg.cell == CUDNN_RNN_TANH) {
                            gw[0][i] = dfull[i] * (Num(1.0) - a[0][i] * a[0][i]);
                        } else if (cfg.cell == CUDNN_LSTM) {
                            const Num &ig = a[0][i], &fg = a[1][i], &gg = a[2][i], &og = a[3][i];
                            const Num tc = ops.tanh(st.c[i]);
                            Num dct = dc[i] + dfull[i] * og * (Num(1.0) - tc * tc);
                            if (cfg.clip) dct = dct * ops.clip_pass(st.c_unclipped[i], st.c[i], cfg);
                            gw[0][i] = dct * gg * ig * (Num(1.0) - ig);
                            gw[1][i] = dct * st.c_prev[i] * fg * (Num(1.0) - fg);
                            gw[2][i] = dct * ig * (Num(1.0) - gg * gg);
                            gw[3][i] = dfull[i] * tc * og * (Num(1.0) - og);
                            dc[i] = dct * fg;
                        } else {
                            const Num &r = a[0][i], &z = a[1][i], &cand = a[2][i];
                            const Num dcand = dfull[i] * (Num(1.0) - z) * (Num(1.0) - cand * cand);
                            gw[0][i] = dcand * st.rh_h[i] * r * (Num(1.0) - r);
                            gw[1][i] = dfull[i] * (st.h_prev[i] - cand) * z * (Num(1.0) - z);
                            gw[2][i] = dcand;
                        }
                    }
                    std::vector<Vector> gr = gw;
                    if (cfg.cell == CUDNN_GRU) {
                        direct.assign(static_cast<size_t>(P), Num(0.0));
                        for (int i = 0; i < H; ++i) {
                            gr[2][i] = gw[2][i] * st.gates[0][i];
                            direct[i] = dfull[i] * st.gates[1][i];
                        }
                    }
                    Num *in_grad = d_in.data() + (static_cast<size_t>(t) * N + n) * width;
                    if (skip) {
                        for (int k = 0; k < g; ++k)
                            for (int j = 0; j < width; ++j) in_grad[j] = in_grad[j] + gw[k][j];
                    } else {
                        const Vector back = ops.transposed(RnnProduct::input, w_all, g * H, concatenated(gw));
                        for (int j = 0; j < width; ++j) in_grad[j] = in_grad[j] + back[j];
                    }
                    for (int k = 0; k < g; ++k) {
                        if (!skip) ops.outer_add(RnnProduct::input, dm[static_cast<size_t>(k)], gw[k], st.in, count);
                        if (!db[static_cast<size_t>(k)].empty()) ops.sum_add(db[static_cast<size_t>(k)], gw[k], count);
                        ops.outer_add(RnnProduct::recurrent, dm[static_cast<size_t>(g + k)], gr[k], st.h_prev, count);
                        if (!db[static_cast<size_t>(g + k)].empty())
                            ops.sum_add(db[static_cast<size_t>(g + k)], gr[k], count);
                    }
                    dh = ops.transposed(RnnProduct::recurrent, r_all, g * H, concatenated(gr));
                    if (!direct.empty())
                        for (int i = 0; i < P; ++i) dh[i] = dh[i] + direct[i];
                }
                for (int i = 0; i < P; ++i) (*dhx)[state * P + i] = dh[i];
                if (cfg.cell == CUDNN_LSTM)
                    for (int i = 0; i < H; ++i) (*dcx)[state * H + i] = dc[i];
            }
        }
        if (layer > 0) {
            d_out = d_in;
            if (!dropout.empty())
                for (size_t e = 0; e < d_out.size(); ++e)
                    d_out[e] = d_out[e] * Num(dropout[static_cast<size_t>(layer - 1) * d_out.size() + e]);
        } else {
            *dx = d_in;
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
