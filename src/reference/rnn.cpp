// The reference RNN: every cell, layer, direction and step written out (rnn_forward.hpp), in double.
#include "reference/rnn.hpp"

#include "reference/rnn_backward.hpp"
#include "reference/rnn_forward.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <utility>

namespace librednn::reference {

namespace {

// Plain double arithmetic for rnn_forward_over.
struct DoubleOps {
    std::vector<double> product(RnnProduct, const std::vector<double> &matrix, int rows,
                                const std::vector<double> &v) const {
        const size_t cols = v.size();
        std::vector<double> out(static_cast<size_t>(rows), 0.0);
        for (size_t r = 0; r < out.size(); ++r)
            for (size_t c = 0; c < cols; ++c) out[r] += matrix[r * cols + c] * v[c];
        return out;
    }
    double sigmoid(double v) const { return 1.0 / (1.0 + std::exp(-v)); }
    double tanh(double v) const { return std::tanh(v); }
    double relu(double v) const { return std::fmax(0.0, v); }
    double clip(double c, const RnnConfig &cfg) const {
        if (std::isnan(c)) return cfg.clip_propagate_nan ? c : cfg.lclip;
        return std::min(std::max(c, cfg.lclip), cfg.rclip);
    }
    std::vector<double> transposed(RnnProduct, const std::vector<double> &matrix, int rows,
                                   const std::vector<double> &v) const {
        const size_t cols = matrix.size() / static_cast<size_t>(rows);
        std::vector<double> out(cols, 0.0);
        for (size_t c = 0; c < cols; ++c)
            for (size_t r = 0; r < static_cast<size_t>(rows); ++r) out[c] += matrix[r * cols + c] * v[r];
        return out;
    }
    void outer_add(RnnProduct, std::vector<double> &sums, const std::vector<double> &left,
                   const std::vector<double> &right, int) const {
        for (size_t r = 0; r < left.size(); ++r)
            for (size_t c = 0; c < right.size(); ++c) sums[r * right.size() + c] += left[r] * right[c];
    }
    void sum_add(std::vector<double> &sums, const std::vector<double> &v, int) const {
        for (size_t i = 0; i < v.size(); ++i) sums[i] += v[i];
    }
    double relu_slope(double h) const { return h > 0.0 ? 1.0 : 0.0; }
    double clip_pass(double, double c, const RnnConfig &cfg) const {
        return c == cfg.lclip || c == cfg.rclip ? 0.0 : 1.0;
    }
};

}  // namespace

Status rnn_forward(const RnnConfig &cfg, const RnnWeights &w, int max_seq_length, const std::vector<int> &lengths,
                   const std::vector<double> &x, const std::vector<double> &hx, const std::vector<double> &cx,
                   double fill, std::vector<double> *y, std::vector<double> *hy, std::vector<double> *cy,
                   const std::vector<double> &dropout) {
    return rnn_forward_over<double>(DoubleOps{}, cfg, w, max_seq_length, lengths, x, hx, cx, fill, y, hy, cy, dropout);
}

}  // namespace librednn::reference

namespace librednn::reference {

Status rnn_backward(const RnnConfig &cfg, const RnnWeights &w, int max_seq_length, const std::vector<int> &lengths,
                    const std::vector<double> &x, const std::vector<double> &hx, const std::vector<double> &cx,
                    const std::vector<double> &dy, const std::vector<double> &dhy, const std::vector<double> &dcy,
                    std::vector<double> *dx, std::vector<double> *dhx, std::vector<double> *dcx, RnnWeights *dw,
                    const std::vector<double> &dropout) {
    RnnWeightGradients<double> gradients;
    const Status status = rnn_backward_over<double>(DoubleOps{}, cfg, w, max_seq_length, lengths, x, hx, cx, dy, dhy,
                                                    dcy, dx, dhx, dcx, &gradients, dropout);
    dw->matrices = std::move(gradients.matrices);
    dw->biases = std::move(gradients.biases);
    return status;
}

}  // namespace librednn::reference
