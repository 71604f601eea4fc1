// Element-by-element error bounds for the RNN forward pass: the reference's own recurrence
// (reference/rnn_forward.hpp) run over intervals [mid - rad, mid + rad] (docs/NUMERICS.md, "RNNs"). mid is the
// reference's double value; rad bounds how far a backend computing in float (or double) may be from it:
// each operation adds its own rounding, and carries its operands' radii through its actual derivatives at the
// actual values (a sigmoid's slope over the interval, a product's |weights| times the radii of what it
// multiplies), instead of worst-case norms compounded over every step, which grew past the outputs themselves
// (the old bound allowed errors of 10^3 to 10^12 on outputs no larger than 3).
//
// The model of the backends' arithmetic (first order):
// - a product of a weight matrix and a vector: each term exact but for `product_error` of it, summed in any
//   order: in float (or double) by sum_error (tolerances.hpp: the smaller of (n - 1) u / (1 - (n - 1) u) and
//   the probabilistic bound, of the sum of the terms' magnitudes); on TF32 tensor cores each factor rounded to
//   nearest (2^-10 of the term: (1 + 2^-11)^2 - 1, and 2^-21 more) and the sum by the tensor cores' float
//   accumulation, which need not round to nearest: 4 u an addition over n + 18 additions, as the GEMM tests
//   bound it (tests/gpu/product_bound.hpp);
// - an addition, a multiplication, a sigmoid, a tanh: 16 u of the magnitudes involved (tolerances.hpp's
//   kFloatStepEps, kDoubleStepEps), and the smallest normal number (a result that underflows);
// - max(0, v) and clipping move no value further from another (their radius passes through);
// - for half data, the weight gradients' products may take half factors (docs/RNN.md, rnn_f16_weight_products):
//   rounded as TF32 rounds them where they are normal halves, off by up to 2^-25 where they fall among half's
//   subnormals (factor_floor; the operands' power-of-two scales are 1 wherever their largest magnitude stays below
//   2^15, as every test's data do).
// For double data the reference's own roundings are as large as the backend's: its sums count twice.
#pragma once

#include "ops/rnn/problem.hpp"
#include "reference/rnn_backward.hpp"
#include "reference/rnn_forward.hpp"
#include "tolerances.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace librednn::test {

// A value the backend may hold: within rad of mid. Arithmetic on Balls adds the operation's rounding: Rounding::eps
// of the magnitudes involved (float's or double's).
template <class Rounding>
struct Ball {
    double mid = 0.0, rad = 0.0;
    Ball() = default;
    Ball(double value) : mid(value) {}  // NOLINT(google-explicit-constructor): exact inputs convert
    Ball(double m, double r) : mid(m), rad(r) {}
    double magnitude() const { return std::fabs(mid) + rad; }
};
// A product of two factors each rounded to TF32 (to nearest): (1 + 2^-11)^2 - 1 of it, and a little more.
constexpr double kTf32ProductError = 0x1p-10 + 0x1p-21;
// A factor rounded to half where it is subnormal there: half of its last place.
constexpr double kHalfFactorFloor = 0x1p-25;

struct FloatRounding {
    static constexpr double eps = kFloatStepEps, tiny = 0x1p-126, reference_sums = 0.0;
};
struct DoubleRounding {
    static constexpr double eps = kDoubleStepEps, tiny = 0x1p-1022, reference_sums = 1.0;
};

template <class R>
Ball<R> operator+(const Ball<R> &a, const Ball<R> &b) {
    return {a.mid + b.mid, a.rad + b.rad + R::eps * (a.magnitude() + b.magnitude())};
}
template <class R>
Ball<R> operator-(const Ball<R> &a, const Ball<R> &b) {
    return {a.mid - b.mid, a.rad + b.rad + R::eps * (a.magnitude() + b.magnitude())};
}
template <class R>
Ball<R> operator*(const Ball<R> &a, const Ball<R> &b) {
    return {a.mid * b.mid, std::fabs(a.mid) * b.rad + std::fabs(b.mid) * a.rad + a.rad * b.rad +
                               R::eps * a.magnitude() * b.magnitude() + R::tiny};
}

// rnn_forward_over's operations on Balls, with the relative error of each kind of product.
template <class R>
struct BallOps {
    double input_error = 0.0, recurrent_error = 0.0;  // product_error of W x, and of R h and P h
    double factor_floor = 0.0;  // what each factor of a weight gradient may be off by beyond product_error's share
    double u = 0x1p-24;         // the unit roundoff sums accumulate with

    double error_of(reference::RnnProduct kind) const {
        return kind == reference::RnnProduct::input ? input_error : recurrent_error;
    }
    // sum over c < count of weight(c) v[c]: what it carries (the weights' magnitudes times v's radii), each term's
    // product error, and its sum's rounding.
    template <class Weight>
    Ball<R> weighted_sum(double product_error, size_t count, const Weight &weight,
                         const std::vector<Ball<R>> &v) const {
        double mid = 0.0, carried = 0.0, magnitude = 0.0;
        for (size_t c = 0; c < count; ++c) {
            const double m = weight(c);
            mid += m * v[c].mid;
            carried += std::fabs(m) * v[c].rad;
            magnitude += std::fabs(m) * v[c].magnitude();
        }
        const double terms = magnitude * (1.0 + product_error), n = static_cast<double>(count);
        const double sum =
            product_error > 0.0 ? (n + 18.0) * 4.0 * u * terms : (1.0 + R::reference_sums) * sum_error(n, terms, u);
        return {mid, carried + product_error * magnitude + sum};
    }
    std::vector<Ball<R>> product(reference::RnnProduct kind, const std::vector<double> &matrix, int rows,
                                 const std::vector<Ball<R>> &v) const {
        const size_t cols = v.size();
        std::vector<Ball<R>> out(static_cast<size_t>(rows));
        for (size_t r = 0; r < out.size(); ++r)
            out[r] = weighted_sum(
                error_of(kind), cols, [&](size_t c) { return matrix[r * cols + c]; }, v);
        return out;
    }
    std::vector<Ball<R>> transposed(reference::RnnProduct kind, const std::vector<double> &matrix, int rows,
                                    const std::vector<Ball<R>> &v) const {
        const size_t cols = matrix.size() / static_cast<size_t>(rows);
        std::vector<Ball<R>> out(cols);
        for (size_t c = 0; c < cols; ++c)
            out[c] = weighted_sum(
                error_of(kind), static_cast<size_t>(rows), [&](size_t r) { return matrix[r * cols + c]; }, v);
        return out;
    }
    // The rounding of a sum of `count` terms in any order, per unit of the terms' magnitudes: TF32 tensor cores'
    // float accumulation (4 u an addition over count + 18 additions) or float's, whichever is larger.
    double sum_factor(int count) const {
        const double n = static_cast<double>(count);
        return std::max((n + 18.0) * 4.0 * u, (1.0 + R::reference_sums) * sum_error(n, 1.0, u));
    }
    // One step's terms of a weight gradient summing `count` of them: each a product of two Balls off by its kind's
    // product error, and its share of the whole sum's rounding (linear in the terms, so any order is covered).
    void outer_add(reference::RnnProduct kind, std::vector<Ball<R>> &sums, const std::vector<Ball<R>> &left,
                   const std::vector<Ball<R>> &right, int count) const {
        const double product_error = error_of(kind), share = sum_factor(count);
        for (size_t r = 0; r < left.size(); ++r)
            for (size_t c = 0; c < right.size(); ++c) {
                const Ball<R> term = left[r] * right[c];
                const double magnitude = left[r].magnitude() * right[c].magnitude();
                Ball<R> &sum = sums[r * right.size() + c];
                sum.mid += term.mid;
                sum.rad +=
                    term.rad + product_error * magnitude + share * term.magnitude() +
                    factor_floor * ((left[r].magnitude() + right[c].magnitude()) * (1.0 + 0x1p-11) + factor_floor);
            }
    }
    void sum_add(std::vector<Ball<R>> &sums, const std::vector<Ball<R>> &v, int count) const {
        const double share = sum_factor(count);
        for (size_t i = 0; i < v.size(); ++i)
            sums[i].mid += v[i].mid, sums[i].rad += v[i].rad + share * v[i].magnitude();
    }
    // 1 where the ReLU output passes its gradient; where the backend's h may lie on the other side of 0 than the
    // reference's, either (radius 1). NaN counts as either.
    Ball<R> relu_slope(const Ball<R> &h) const {
        const bool positive = h.mid > 0.0;
        const bool ambiguous = positive ? !(h.mid > h.rad) : !(h.rad == 0.0);
        return {positive ? 1.0 : 0.0, ambiguous ? 1.0 : 0.0};
    }
    // 0 where the cell state sits at a clipping bound, from the state before clipping (c_unclipped); where the
    // backend's may be clipped and the reference's not, or the other way round, either.
    Ball<R> clip_pass(const Ball<R> &c_unclipped, const Ball<R> &c, const reference::RnnConfig &cfg) const {
        const double reach = c_unclipped.rad + R::eps * std::max(std::fabs(cfg.lclip), std::fabs(cfg.rclip));
        const bool below = c_unclipped.mid + reach<cfg.lclip, above = c_unclipped.mid - reach> cfg.rclip;
        const bool inside = c_unclipped.mid - reach > cfg.lclip && c_unclipped.mid + reach < cfg.rclip;
        const bool at_bound = c.mid == cfg.lclip || c.mid == cfg.rclip;
        return {at_bound ? 0.0 : 1.0, below || above || inside ? 0.0 : 1.0};
    }
    // f(v) for f monotonic with |f'| largest at 0 and falling with |x|: the radius times f's largest slope over
    // the interval, plus the rounding of f's own evaluation.
    template <class F, class Slope>
    static Ball<R> through(const Ball<R> &v, const F &f, const Slope &slope) {
        const double nearest = std::clamp(0.0, v.mid - v.rad, v.mid + v.rad);
        const double value = f(v.mid);
        return {value, slope(nearest) * v.rad + R::eps * std::fabs(value) + R::tiny};
    }
    Ball<R> sigmoid(const Ball<R> &v) const {
        const auto f = [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
        return through(v, f, [&](double x) { return f(x) * (1.0 - f(x)); });
    }
    Ball<R> tanh(const Ball<R> &v) const {
        return through(
            v, [](double x) { return std::tanh(x); }, [](double x) { return 1.0 - std::tanh(x) * std::tanh(x); });
    }
    // max(0, v): the backend's lies in max(0, [mid - rad, mid + rad]), within rad of the reference's where mid > 0,
    // within max(0, mid + rad) of 0 otherwise (a NaN mid stays).
    Ball<R> relu(const Ball<R> &v) const {
        if (!(v.mid <= 0.0)) return v;
        return {0.0, std::max(0.0, v.mid + v.rad)};
    }
    // The clipping of c: the backend's lies in clamp([mid - rad, mid + rad]), each bound rounded to float.
    Ball<R> clip(const Ball<R> &c, const reference::RnnConfig &cfg) const {
        if (std::isnan(c.mid)) return {cfg.clip_propagate_nan ? c.mid : cfg.lclip, c.rad};
        const auto clamp = [&](double v) { return std::min(std::max(v, cfg.lclip), cfg.rclip); };
        const double value = clamp(c.mid);
        return {value, std::max(value - clamp(c.mid - c.rad), clamp(c.mid + c.rad) - value) +
                           R::eps * std::max(std::fabs(cfg.lclip), std::fabs(cfg.rclip))};
    }
};

// How far each output of a backend's forward pass may be from the reference's: y, hy, cy as the reference
// lays them out. The product errors follow which products run on TF32 tensor cores (docs/RNN.md, "On CUDA";
// the host never does): under a math type other than CUDNN_FMA_MATH, float and half data's W x over all steps,
// and from batch 17 the steps' R h (the fused step; from 32 every step product) and P h.
struct ForwardErrors {
    std::vector<double> y, hy, cy;
};

template <class R>
ForwardErrors forward_errors_in(const RnnProblem &p, const reference::RnnConfig &config,
                                const reference::RnnWeights &weights, const std::vector<double> &x,
                                const std::vector<double> &hx, const std::vector<double> &cx,
                                const std::vector<double> &dropout) {
    const RnnNetwork &n = p.net;
    const bool in_double = n.data_type == CUDNN_DATA_DOUBLE;
    const bool tf32 = !in_double && n.math_type != CUDNN_FMA_MATH;
    BallOps<R> ops;
    ops.u = accumulation_roundoff(in_double ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT);
    ops.input_error = tf32 ? kTf32ProductError : 0.0;
    ops.recurrent_error = tf32 && p.batch_size >= 17 ? kTf32ProductError : 0.0;
    const auto balls = [](const std::vector<double> &values) {
        return std::vector<Ball<R>>(values.begin(), values.end());
    };
    std::vector<Ball<R>> y, hy, cy;
    ForwardErrors errors;
    if (reference::rnn_forward_over<Ball<R>>(ops, config, weights, p.max_seq_length, p.seq_lengths, balls(x), balls(hx),
                                             balls(cx), Ball<R>(p.padding_fill), &y, &hy, &cy,
                                             dropout) != CUDNN_STATUS_SUCCESS)
        return errors;
    // A radius that overflowed (inf times 0 makes NaN) allows anything, as the backward tests read it: the bound
    // says nothing there. Left NaN, it failed every comparison: deep networks, whose radii compound layer by layer
    // and step by step past 10^300, failed Rnn.ForwardOfPersistentStepsMatchesReference now and then
    // (LIBREDNN_TEST_SEED=117: a 3-layer bidirectional GRU of 7 steps, hidden 184, half data).
    const auto radii = [](const std::vector<Ball<R>> &values) {
        std::vector<double> r;
        for (const Ball<R> &b : values) r.push_back(std::isnan(b.rad) ? HUGE_VAL : b.rad);
        return r;
    };
    errors.y = radii(y), errors.hy = radii(hy), errors.cy = radii(cy);
    return errors;
}

// The backward pass over intervals: each gradient's reference value (mid) and how far a backend's may be from it
// (rad). Every product counted as TF32 where the math type allows it (the backward's products over all steps, the
// weight gradients, and from batch 17 the steps' R^T dG run on tensor cores; the GRU's R_h h + b_Rh is recomputed
// over all steps). x and dy dense [T][N][width], zeros beyond each sequence; `dropout` the factors the training
// forward drew between layers (documented_dropout_factors; empty without dropout).
template <class R>
struct BackwardBalls {
    std::vector<Ball<R>> dx, dhx, dcx;
    reference::RnnWeightGradients<Ball<R>> dw;
    bool ok = false;
};

template <class R>
BackwardBalls<R> backward_balls(const RnnProblem &p, const reference::RnnConfig &config,
                                const reference::RnnWeights &weights, const std::vector<double> &x,
                                const std::vector<double> &hx, const std::vector<double> &cx,
                                const std::vector<double> &dy, const std::vector<double> &dhy,
                                const std::vector<double> &dcy, const std::vector<double> &dropout) {
    const RnnNetwork &n = p.net;
    const bool in_double = n.data_type == CUDNN_DATA_DOUBLE;
    const bool tf32 = !in_double && n.math_type != CUDNN_FMA_MATH;
    BallOps<R> ops;
    ops.u = accumulation_roundoff(in_double ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT);
    ops.input_error = ops.recurrent_error = tf32 ? kTf32ProductError : 0.0;
    ops.factor_floor = tf32 && n.data_type == CUDNN_DATA_HALF ? kHalfFactorFloor : 0.0;
    const auto balls = [](const std::vector<double> &values) {
        return std::vector<Ball<R>>(values.begin(), values.end());
    };
    BackwardBalls<R> out;
    if (p.dropout_between_layers() && dropout.empty()) return out;  // no factors for the layers: ok stays false
    out.ok = reference::rnn_backward_over<Ball<R>>(ops, config, weights, p.max_seq_length, p.seq_lengths, balls(x),
                                                   balls(hx), balls(cx), balls(dy), balls(dhy), balls(dcy), &out.dx,
                                                   &out.dhx, &out.dcx, &out.dw, dropout) == CUDNN_STATUS_SUCCESS;
    return out;
}

inline ForwardErrors forward_errors(const RnnProblem &p, const reference::RnnConfig &config,
                                    const reference::RnnWeights &weights, const std::vector<double> &x,
                                    const std::vector<double> &hx, const std::vector<double> &cx,
                                    const std::vector<double> &dropout) {
    if (p.net.data_type == CUDNN_DATA_DOUBLE)
        return forward_errors_in<DoubleRounding>(p, config, weights, x, hx, cx, dropout);
    return forward_errors_in<FloatRounding>(p, config, weights, x, hx, cx, dropout);
}

}  // namespace librednn::test
