// The reference RNN: every cell, layer, direction and step written out (rnn_forward.hpp), in double.
#include "reference/rnn.hpp"

#include "reference/rnn_forward.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

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
};

}  // namespace

Status rnn_forward(const RnnConfig &cfg, const RnnWeights &w, int max_seq_length, const std::vector<int> &lengths,
                   const std::vector<double> &x, const std::vector<double> &hx, const std::vector<double> &cx,
                   double fill, std::vector<double> *y, std::vector<double> *hy, std::vector<double> *cy,
                   const std::vector<double> &dropout) {
    return rnn_forward_over<double>(DoubleOps{}, cfg, w, max_seq_length, lengths, x, hx, cx, fill, y, hy, cy, dropout);
}

}  // namespace librednn::reference
