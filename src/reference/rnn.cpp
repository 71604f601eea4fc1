// The reference RNN: every cell, layer, direction and step written out, in double.
#include "reference/rnn.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace librednn::reference {

namespace {

using Vector = std::vector<double>;

double sigmoid(double v) { return 1.0 / (1.0 + std::exp(-v)); }

int gate_count(cudnnRNNMode_t cell) { return cell == CUDNN_LSTM ? 4 : cell == CUDNN_GRU ? 3 : 1; }

// matrix (rows x cols, row-major) times v, or v itself when the matrix is absent (CUDNN_SKIP_INPUT).
Vector times(const Vector &matrix, int rows, const Vector &v) {
    if (matrix.empty()) return v;
    const size_t cols = v.size();
    Vector out(static_cast<size_t>(rows), 0.0);
    for (size_t r = 0; r < out.size(); ++r)
        for (size_t c = 0; c < cols; ++c) out[r] += matrix[r * cols + c] * v[c];
    return out;
}

Vector plus(Vector a, const Vector &bias) {
    if (!bias.empty())
        for (size_t i = 0; i < a.size(); ++i) a[i] += bias[i];
    return a;
}

}  // namespace

Status rnn_forward(const RnnConfig &cfg, const RnnWeights &w, int max_seq_length, const std::vector<int> &lengths,
                   const Vector &x, const Vector &hx, const Vector &cx, double fill, Vector *y, Vector *hy, Vector *cy,
                   const Vector &dropout) {
    const int dirs = cfg.bidirectional ? 2 : 1, pseudo_layers = cfg.layers * dirs, g = gate_count(cfg.cell);
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

    Vector input = x;
    int input_size = cfg.input_size;
    hy->assign(count(pseudo_layers, N, P), 0.0);
    cy->assign(count(pseudo_layers, N, H), 0.0);
    Vector output;
    for (int layer = 0; layer < cfg.layers; ++layer) {
        output.assign(count(T, N, P * dirs), fill);
        for (int dir = 0; dir < dirs; ++dir) {
            const int pl = layer * dirs + dir;
            const auto &m = w.matrices[static_cast<size_t>(pl)];
            const auto &b = w.biases[static_cast<size_t>(pl)];
            const auto bias = [&](int id) -> const Vector & { return b[static_cast<size_t>(id)]; };
            const auto matrix = [&](int id) -> const Vector & { return m[static_cast<size_t>(id)]; };
            for (int n = 0; n < N; ++n) {
                Vector h(static_cast<size_t>(P), 0.0), c(static_cast<size_t>(H), 0.0);
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
                        wx[k] = plus(times(matrix(k), H, in), bias(k));
                        rh[k] = plus(times(matrix(g + k), H, h), bias(g + k));
                    }
                    Vector next(static_cast<size_t>(H));
                    for (int i = 0; i < H; ++i) {
                        if (cfg.cell == CUDNN_RNN_RELU) {
                            next[i] = std::fmax(0.0, wx[0][i] + rh[0][i]);
                        } else if (cfg.cell == CUDNN_RNN_TANH) {
                            next[i] = std::tanh(wx[0][i] + rh[0][i]);
                        } else if (lstm) {
                            const double ig = sigmoid(wx[0][i] + rh[0][i]), fg = sigmoid(wx[1][i] + rh[1][i]);
                            const double gg = std::tanh(wx[2][i] + rh[2][i]), og = sigmoid(wx[3][i] + rh[3][i]);
                            c[i] = fg * c[i] + ig * gg;
                            if (cfg.clip) {
                                if (std::isnan(c[i]))
                                    c[i] = cfg.clip_propagate_nan ? c[i] : cfg.lclip;
                                else
                                    c[i] = std::min(std::max(c[i], cfg.lclip), cfg.rclip);
                            }
                            next[i] = og * std::tanh(c[i]);
                        } else {
                            const double r = sigmoid(wx[0][i] + rh[0][i]), z = sigmoid(wx[1][i] + rh[1][i]);
                            const double candidate = std::tanh(wx[2][i] + r * rh[2][i]);
                            next[i] = (1.0 - z) * candidate + z * h[i];
                        }
                    }
                    h = P < H ? times(matrix(2 * g), P, next) : next;
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
                input[e] *= dropout[static_cast<size_t>(layer) * input.size() + e];
    }
    *y = output;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
