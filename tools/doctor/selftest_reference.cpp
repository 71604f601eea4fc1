// Naive references for the self-test: straight loops, double accumulation (see selftest_reference.hpp).
#include "selftest_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace librednn::doctor::reference {

Shape4 Conv2d::output(const Shape4 &x, const Shape4 &w) const {
    const int extent_h = (w.h - 1) * dilation_h + 1, extent_w = (w.w - 1) * dilation_w + 1;
    return {x.n, w.n, 1 + (x.h + 2 * pad_h - extent_h) / stride_h, 1 + (x.w + 2 * pad_w - extent_w) / stride_w};
}

// The input position tap (r, s) of output (p, q) reads, or false when it falls in the padding.
static bool input_position(const Conv2d &conv, const Shape4 &xs, int p, int q, int r, int s, int *y, int *x) {
    *y = p * conv.stride_h - conv.pad_h + r * conv.dilation_h;
    *x = q * conv.stride_w - conv.pad_w + s * conv.dilation_w;
    return *y >= 0 && *y < xs.h && *x >= 0 && *x < xs.w;
}

std::vector<double> convolution_forward(const Conv2d &conv, const Shape4 &xs, const std::vector<float> &x,
                                        const Shape4 &ws, const std::vector<float> &w) {
    const Shape4 ys = conv.output(xs, ws);
    std::vector<double> y(ys.count(), 0.0);
    for (int n = 0; n < ys.n; ++n)
        for (int k = 0; k < ys.c; ++k)
            for (int p = 0; p < ys.h; ++p)
                for (int q = 0; q < ys.w; ++q) {
                    double sum = 0;
                    for (int c = 0; c < xs.c; ++c)
                        for (int r = 0; r < ws.h; ++r)
                            for (int s = 0; s < ws.w; ++s) {
                                int iy, ix;
                                if (input_position(conv, xs, p, q, r, s, &iy, &ix)) {
                                    sum += double{x[xs.at(n, c, iy, ix)]} * w[ws.at(k, c, r, s)];
                                }
                            }
                    y[ys.at(n, k, p, q)] = sum;
                }
    return y;
}

std::vector<double> convolution_backward_data(const Conv2d &conv, const Shape4 &xs, const Shape4 &ws,
                                              const std::vector<float> &w, const std::vector<float> &dy) {
    const Shape4 ys = conv.output(xs, ws);
    std::vector<double> dx(xs.count(), 0.0);
    for (int n = 0; n < ys.n; ++n)
        for (int k = 0; k < ys.c; ++k)
            for (int p = 0; p < ys.h; ++p)
                for (int q = 0; q < ys.w; ++q)
                    for (int c = 0; c < xs.c; ++c)
                        for (int r = 0; r < ws.h; ++r)
                            for (int s = 0; s < ws.w; ++s) {
                                int iy, ix;
                                if (input_position(conv, xs, p, q, r, s, &iy, &ix)) {
                                    dx[xs.at(n, c, iy, ix)] += double{dy[ys.at(n, k, p, q)]} * w[ws.at(k, c, r, s)];
                                }
                            }
    return dx;
}

std::vector<double> convolution_backward_filter(const Conv2d &conv, const Shape4 &xs, const std::vector<float> &x,
                                                const Shape4 &ws, const std::vector<float> &dy) {
    const Shape4 ys = conv.output(xs, ws);
    std::vector<double> dw(ws.count(), 0.0);
    for (int n = 0; n < ys.n; ++n)
        for (int k = 0; k < ys.c; ++k)
            for (int p = 0; p < ys.h; ++p)
                for (int q = 0; q < ys.w; ++q)
                    for (int c = 0; c < xs.c; ++c)
                        for (int r = 0; r < ws.h; ++r)
                            for (int s = 0; s < ws.w; ++s) {
                                int iy, ix;
                                if (input_position(conv, xs, p, q, r, s, &iy, &ix)) {
                                    dw[ws.at(k, c, r, s)] += double{dy[ys.at(n, k, p, q)]} * x[xs.at(n, c, iy, ix)];
                                }
                            }
    return dw;
}

std::vector<double> batch_norm_inference(const Shape4 &xs, const std::vector<float> &x, const std::vector<float> &scale,
                                         const std::vector<float> &bias, const std::vector<float> &mean,
                                         const std::vector<float> &variance, double epsilon) {
    std::vector<double> y(xs.count());
    for (int n = 0; n < xs.n; ++n)
        for (int c = 0; c < xs.c; ++c) {
            const double inverse_deviation = 1.0 / std::sqrt(double{variance[c]} + epsilon);
            for (int h = 0; h < xs.h; ++h)
                for (int w = 0; w < xs.w; ++w) {
                    const int64_t i = xs.at(n, c, h, w);
                    y[i] = double{scale[c]} * (x[i] - double{mean[c]}) * inverse_deviation + bias[c];
                }
        }
    return y;
}

Shape4 Pool2d::output(const Shape4 &x) const {
    return {x.n, x.c, 1 + (x.h + 2 * pad_h - window_h) / stride_h, 1 + (x.w + 2 * pad_w - window_w) / stride_w};
}

std::vector<double> max_pooling(const Pool2d &pool, const Shape4 &xs, const std::vector<float> &x) {
    const Shape4 ys = pool.output(xs);
    std::vector<double> y(ys.count());
    for (int n = 0; n < ys.n; ++n)
        for (int c = 0; c < ys.c; ++c)
            for (int p = 0; p < ys.h; ++p)
                for (int q = 0; q < ys.w; ++q) {
                    double best = -std::numeric_limits<double>::infinity();
                    for (int r = 0; r < pool.window_h; ++r)
                        for (int s = 0; s < pool.window_w; ++s) {
                            const int iy = p * pool.stride_h - pool.pad_h + r, ix = q * pool.stride_w - pool.pad_w + s;
                            if (iy >= 0 && iy < xs.h && ix >= 0 && ix < xs.w)
                                best = std::max(best, double{x[xs.at(n, c, iy, ix)]});
                        }
                    y[ys.at(n, c, p, q)] = best;
                }
    return y;
}

std::vector<double> softmax(const Shape4 &xs, const std::vector<float> &x, bool per_channel, bool log_softmax) {
    std::vector<double> y(xs.count());
    // The groups normalised together: C values at one (n, h, w), or all C*H*W values of one n.
    auto normalise = [&](const std::vector<int64_t> &group) {
        double largest = -std::numeric_limits<double>::infinity(), sum = 0;
        for (int64_t i : group) largest = std::max(largest, double{x[i]});
        for (int64_t i : group) sum += std::exp(x[i] - largest);
        for (int64_t i : group) y[i] = log_softmax ? x[i] - largest - std::log(sum) : std::exp(x[i] - largest) / sum;
    };
    for (int n = 0; n < xs.n; ++n) {
        if (!per_channel) {
            std::vector<int64_t> group;
            for (int c = 0; c < xs.c; ++c)
                for (int h = 0; h < xs.h; ++h)
                    for (int w = 0; w < xs.w; ++w) group.push_back(xs.at(n, c, h, w));
            normalise(group);
            continue;
        }
        for (int h = 0; h < xs.h; ++h)
            for (int w = 0; w < xs.w; ++w) {
                std::vector<int64_t> group;
                for (int c = 0; c < xs.c; ++c) group.push_back(xs.at(n, c, h, w));
                normalise(group);
            }
    }
    return y;
}

std::vector<double> relu(const std::vector<float> &x) {
    std::vector<double> y(x.size());
    for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] > 0 ? x[i] : 0.0;
    return y;
}

std::vector<double> relu_backward(const std::vector<float> &x, const std::vector<float> &dy) {
    std::vector<double> dx(x.size());
    for (size_t i = 0; i < x.size(); ++i) dx[i] = x[i] > 0 ? dy[i] : 0.0;
    return dx;
}

LstmOutputs lstm_forward(const Lstm &net, const std::vector<float> &x, const std::vector<float> &hx,
                         const std::vector<float> &cx) {
    const int H = net.hidden, N = net.batch;
    LstmOutputs out;
    out.y.assign(static_cast<size_t>(net.steps) * N * H, 0.0);
    out.hy.resize(static_cast<size_t>(N) * H);
    out.cy.resize(static_cast<size_t>(N) * H);
    const auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    for (int n = 0; n < N; ++n) {
        std::vector<double> h(hx.begin() + n * H, hx.begin() + (n + 1) * H);
        std::vector<double> c(cx.begin() + n * H, cx.begin() + (n + 1) * H);
        for (int t = 0; t < net.lengths[n]; ++t) {
            const float *xt = x.data() + (static_cast<size_t>(t) * N + n) * net.input;
            std::vector<double> gate(4 * static_cast<size_t>(H));
            for (int q = 0; q < 4; ++q)
                for (int i = 0; i < H; ++i) {
                    double sum = double{net.biases[q][i]} + net.biases[4 + q][i];
                    for (int k = 0; k < net.input; ++k) sum += double{net.matrices[q][i * net.input + k]} * xt[k];
                    for (int k = 0; k < H; ++k) sum += double{net.matrices[4 + q][i * H + k]} * h[k];
                    gate[q * H + i] = sum;
                }
            for (int i = 0; i < H; ++i) {
                const double in = sigmoid(gate[i]), forget = sigmoid(gate[H + i]);
                const double cell = std::tanh(gate[2 * H + i]), output = sigmoid(gate[3 * H + i]);
                c[i] = forget * c[i] + in * cell;
                h[i] = output * std::tanh(c[i]);
                out.y[(static_cast<size_t>(t) * N + n) * H + i] = h[i];
            }
        }
        std::copy(h.begin(), h.end(), out.hy.begin() + n * H);
        std::copy(c.begin(), c.end(), out.cy.begin() + n * H);
    }
    return out;
}

double relative_error(const std::vector<float> &out, const std::vector<double> &ref) {
    if (out.size() != ref.size()) return std::numeric_limits<double>::infinity();
    double difference = 0, norm = 0;
    for (size_t i = 0; i < ref.size(); ++i) {
        if (!std::isfinite(out[i]) && std::isfinite(ref[i])) return std::numeric_limits<double>::infinity();
        difference += (out[i] - ref[i]) * (out[i] - ref[i]);
        norm += ref[i] * ref[i];
    }
    return std::sqrt(difference) / (norm > 0 ? std::sqrt(norm) : 1.0);
}

}  // namespace librednn::doctor::reference
