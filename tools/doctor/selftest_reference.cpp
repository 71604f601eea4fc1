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

RnnOutputs lstm_forward(const RnnLayer &net, const std::vector<float> &x, const std::vector<float> &hx,
                        const std::vector<float> &cx) {
    const int H = net.hidden, N = net.batch;
    RnnOutputs out;
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

RnnOutputs gru_forward(const RnnLayer &net, const std::vector<float> &x, const std::vector<float> &hx) {
    const int H = net.hidden, N = net.batch, I = net.input;
    RnnOutputs out;
    out.y.assign(static_cast<size_t>(net.steps) * N * H, 0.0);
    out.hy.resize(static_cast<size_t>(N) * H);
    const auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    for (int n = 0; n < N; ++n) {
        std::vector<double> h(hx.begin() + n * H, hx.begin() + (n + 1) * H);
        for (int t = 0; t < net.lengths[n]; ++t) {
            const float *xt = x.data() + (static_cast<size_t>(t) * N + n) * I;
            // in[q]: W_q x + b_Wq; rec[q]: R_q h + b_Rq, for r, z and the new gate.
            std::vector<double> in(3 * static_cast<size_t>(H)), rec(3 * static_cast<size_t>(H));
            for (int q = 0; q < 3; ++q)
                for (int i = 0; i < H; ++i) {
                    double a = net.biases[q][i], b = net.biases[3 + q][i];
                    for (int k = 0; k < I; ++k) a += double{net.matrices[q][i * I + k]} * xt[k];
                    for (int k = 0; k < H; ++k) b += double{net.matrices[3 + q][i * H + k]} * h[k];
                    in[q * H + i] = a, rec[q * H + i] = b;
                }
            for (int i = 0; i < H; ++i) {
                const double reset = sigmoid(in[i] + rec[i]), update = sigmoid(in[H + i] + rec[H + i]);
                const double candidate = std::tanh(in[2 * H + i] + reset * rec[2 * H + i]);
                h[i] = (1 - update) * candidate + update * h[i];
                out.y[(static_cast<size_t>(t) * N + n) * H + i] = h[i];
            }
        }
        std::copy(h.begin(), h.end(), out.hy.begin() + n * H);
    }
    return out;
}

LstmGradients lstm_backward(const RnnLayer &net, const std::vector<float> &x, const std::vector<float> &hx,
                            const std::vector<float> &cx, const std::vector<float> &dy, const std::vector<float> &dhy,
                            const std::vector<float> &dcy) {
    const int H = net.hidden, N = net.batch, I = net.input;
    LstmGradients out;
    out.dx.assign(static_cast<size_t>(net.steps) * N * I, 0.0);
    out.dhx.resize(static_cast<size_t>(N) * H);
    out.dcx.resize(static_cast<size_t>(N) * H);
    for (int id = 0; id < 8; ++id) {
        out.matrices.emplace_back(static_cast<size_t>(H) * (id < 4 ? I : H), 0.0);
        out.biases.emplace_back(static_cast<size_t>(H), 0.0);
    }
    const auto sigmoid = [](double v) { return 1.0 / (1.0 + std::exp(-v)); };
    for (int n = 0; n < N; ++n) {
        const int length = net.lengths[n];
        // The forward again, keeping each step's h and c before it and its activated gates (i, f, g, o).
        std::vector<std::vector<double>> h_before(length), c_before(length), gates(length), c_after(length);
        std::vector<double> h(hx.begin() + n * H, hx.begin() + (n + 1) * H);
        std::vector<double> c(cx.begin() + n * H, cx.begin() + (n + 1) * H);
        for (int t = 0; t < length; ++t) {
            const float *xt = x.data() + (static_cast<size_t>(t) * N + n) * I;
            h_before[t] = h, c_before[t] = c;
            gates[t].resize(4 * static_cast<size_t>(H));
            for (int q = 0; q < 4; ++q)
                for (int i = 0; i < H; ++i) {
                    double sum = double{net.biases[q][i]} + net.biases[4 + q][i];
                    for (int k = 0; k < I; ++k) sum += double{net.matrices[q][i * I + k]} * xt[k];
                    for (int k = 0; k < H; ++k) sum += double{net.matrices[4 + q][i * H + k]} * h[k];
                    gates[t][q * H + i] = q == 2 ? std::tanh(sum) : sigmoid(sum);
                }
            for (int i = 0; i < H; ++i) {
                const double *g = gates[t].data();
                c[i] = g[H + i] * c[i] + g[i] * g[2 * H + i];
                h[i] = g[3 * H + i] * std::tanh(c[i]);
            }
            c_after[t] = c;
        }
        // Backwards through the steps: dh, dc carried from the step after (dhy, dcy after the last).
        std::vector<double> dh(dhy.begin() + n * H, dhy.begin() + (n + 1) * H);
        std::vector<double> dc(dcy.begin() + n * H, dcy.begin() + (n + 1) * H);
        for (int t = length - 1; t >= 0; --t) {
            const float *xt = x.data() + (static_cast<size_t>(t) * N + n) * I;
            const double *g = gates[t].data();
            std::vector<double> da(4 * static_cast<size_t>(H));  // the pre-activations' gradients
            for (int i = 0; i < H; ++i) {
                const double dh_total = dh[i] + dy[(static_cast<size_t>(t) * N + n) * H + i];
                const double tc = std::tanh(c_after[t][i]);
                const double in = g[i], forget = g[H + i], cell = g[2 * H + i], output = g[3 * H + i];
                const double dc_total = dc[i] + dh_total * output * (1 - tc * tc);
                da[i] = dc_total * cell * in * (1 - in);
                da[H + i] = dc_total * c_before[t][i] * forget * (1 - forget);
                da[2 * H + i] = dc_total * in * (1 - cell * cell);
                da[3 * H + i] = dh_total * tc * output * (1 - output);
                dc[i] = dc_total * forget;
            }
            std::fill(dh.begin(), dh.end(), 0.0);
            for (int q = 0; q < 4; ++q)
                for (int i = 0; i < H; ++i) {
                    const double d = da[q * H + i];
                    out.biases[q][i] += d, out.biases[4 + q][i] += d;
                    for (int k = 0; k < I; ++k) {
                        out.matrices[q][i * I + k] += d * xt[k];
                        out.dx[(static_cast<size_t>(t) * N + n) * I + k] += net.matrices[q][i * I + k] * d;
                    }
                    for (int k = 0; k < H; ++k) {
                        out.matrices[4 + q][i * H + k] += d * h_before[t][k];
                        dh[k] += net.matrices[4 + q][i * H + k] * d;
                    }
                }
        }
        std::copy(dh.begin(), dh.end(), out.dhx.begin() + n * H);
        std::copy(dc.begin(), dc.end(), out.dcx.begin() + n * H);
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
