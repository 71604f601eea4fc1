// cudnnRNNBackwardData_v8 and cudnnRNNBackwardWeights_v8 against central differences of cudnnRNNForward
// in double, on small random networks: every cell, one and two directions, 1 and 2 layers, linear and
// skip input, the four bias modes, the LSTM projection, the three layouts, unequal sequence lengths (0
// included), hx, cx, dhy, dcy, dhx, dcx each present or NULL. The loss is sum(dy . y) + sum(dhy . hy) +
// sum(dcy . cy), so its derivatives are what the backward passes return; dy's padding holds NaN, so a
// read of it shows. With dropout between layers and LSTM cell clipping too: the loss is then that of a
// training forward whose dropout states are reset before each call, so every forward draws the same mask.
// Then float and half against a double run of the same values, ADD against SET, the rejections. The same
// tests run on the CUDA backend.
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/rnn/problem.hpp"
#include "reference/rnn.hpp"
#include "rnn_error_bound.hpp"
#include "rnn_test_util.hpp"
#include "tolerances.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include "core/data_type.hpp"
#include "core/status.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <memory>
#include <string>

namespace {

using namespace librednn;
using namespace librednn::test;

// Which of the optional buffers a case passes.
struct Optional {
    bool hx, cx, dhy, dcy, dhx, dcx;
};

// A random small network; `batch` sequences when given, else 1 to 3; `hidden` units without a projection when
// given, else 1 to 4 with or without one.
RnnProblem random_problem(Random &rng, cudnnDataType_t type, int batch = 0, int hidden = 0) {
    RnnProblem p;
    RnnNetwork &n = p.net;
    n.cell = rng.pick<cudnnRNNMode_t>({CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU});
    n.bidirectional = rng.coin();
    n.layers = static_cast<int>(rng.integer(1, 2));
    n.hidden_size = hidden > 0 ? hidden : static_cast<int>(rng.integer(1, 4));
    n.skip_input = rng.integer(0, 3) == 0;
    n.input_size = n.skip_input ? n.hidden_size : static_cast<int>(rng.integer(1, 4));
    n.proj_size = hidden == 0 && n.cell == CUDNN_LSTM && n.hidden_size > 1 && rng.coin()
                      ? static_cast<int>(rng.integer(1, n.hidden_size - 1))
                      : n.hidden_size;
    n.bias_mode = rng.pick<cudnnRNNBiasMode_t>(
        {CUDNN_RNN_NO_BIAS, CUDNN_RNN_SINGLE_INP_BIAS, CUDNN_RNN_DOUBLE_BIAS, CUDNN_RNN_SINGLE_REC_BIAS});
    n.data_type = type;
    n.math_prec = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    p.training = true;
    p.layout = rng.pick<cudnnRNNDataLayout_t>({CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED,
                                               CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED,
                                               CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED});
    p.max_seq_length = static_cast<int>(rng.integer(1, 4));
    p.batch_size = batch > 0 ? batch : static_cast<int>(rng.integer(1, 3));
    for (int i = 0; i < p.batch_size; ++i) p.seq_lengths.push_back(static_cast<int>(rng.integer(0, p.max_seq_length)));
    if (p.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED)
        std::sort(p.seq_lengths.begin(), p.seq_lengths.end(), std::greater<int>());
    return p;
}

Optional random_optional(Random &rng, const RnnNetwork &n) {
    const bool lstm = n.cell == CUDNN_LSTM;
    return {rng.coin(), lstm && rng.coin(), rng.coin(), lstm && rng.coin(), rng.coin(), lstm && rng.coin()};
}

double rounded(Random &rng, cudnnDataType_t type, double low, double high) {
    uint64_t bits = 0;
    store_scalar(&bits, type, 0, rng.uniform(low, high));
    return load_scalar(&bits, type, 0);
}

// Every value a case feeds in, as doubles (already rounded to the data type).
struct Inputs {
    std::vector<double> x, hx, cx, w, dy, dhy, dcy;
};

bool valid(const RnnProblem &p, int t, int n) { return t < p.seq_lengths[static_cast<size_t>(n)]; }

// x or dy (the library's layout) dense, as the reference takes them: [T][N][width], zeros beyond each sequence.
std::vector<double> dense_of(const RnnProblem &p, const std::vector<double> &data, int width) {
    const int T = p.max_seq_length, N = p.batch_size;
    std::vector<double> v(static_cast<size_t>(T) * N * width, 0.0);
    for (int t = 0; t < T; ++t)
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < width && valid(p, t, b); ++i)
                v[(static_cast<size_t>(t) * N + b) * width + i] = data[rnn_data_offset(p, width, t, b, i)];
    return v;
}

// x and dy: random at each sequence's steps; x's padding 0, dy's NaN (never read).
std::vector<double> random_data(Random &rng, const RnnProblem &p, int width, double padding) {
    std::vector<double> v(static_cast<size_t>(rnn_data_elements(p, width)), padding);
    for (int t = 0; t < p.max_seq_length; ++t)
        for (int n = 0; n < p.batch_size; ++n)
            for (int i = 0; i < width; ++i)
                if (valid(p, t, n)) v[rnn_data_offset(p, width, t, n, i)] = rounded(rng, p.net.data_type, -1.0, 1.0);
    return v;
}

Inputs random_inputs(Random &rng, const RnnProblem &p, const Optional &o) {
    const RnnNetwork &n = p.net;
    const cudnnDataType_t type = n.data_type;
    Inputs in;
    in.x = random_data(rng, p, n.input_size, 0.0);
    in.dy = random_data(rng, p, p.y_size(), std::numeric_limits<double>::quiet_NaN());
    const int64_t hs = static_cast<int64_t>(n.pseudo_layers()) * p.batch_size * n.proj_size;
    const int64_t cs = static_cast<int64_t>(n.pseudo_layers()) * p.batch_size * n.hidden_size;
    auto fill = [&](bool present, int64_t count, std::vector<double> *out) {
        if (present)
            for (int64_t i = 0; i < count; ++i) out->push_back(rounded(rng, type, -1.0, 1.0));
    };
    fill(o.hx, hs, &in.hx);
    fill(o.cx, cs, &in.cx);
    fill(o.dhy, hs, &in.dhy);
    fill(o.dcy, cs, &in.dcy);
    // Weights within 0.6, and within 1.5 / sqrt(fan-in) for wide layers, so that a step's sum of width + projSize
    // terms stays of the order of its terms instead of growing with the width step after step.
    const double scale = std::min(0.6, 1.5 / std::sqrt(static_cast<double>(std::max(n.input_size, n.proj_size))));
    for (int64_t i = 0; i < rnn_weight_elements(n); ++i) in.w.push_back(rounded(rng, type, -scale, scale));
    return in;
}

std::vector<uint8_t> bytes_of(const std::vector<double> &values, cudnnDataType_t type) {
    std::vector<uint8_t> bytes(std::max<size_t>(values.size(), 1) * data_type_size(type), 0);
    for (size_t i = 0; i < values.size(); ++i) store_scalar(bytes.data(), type, static_cast<int64_t>(i), values[i]);
    return bytes;
}

std::vector<double> doubles_of(const std::vector<uint8_t> &bytes, cudnnDataType_t type, size_t count) {
    std::vector<double> v(count);
    for (size_t i = 0; i < count; ++i) v[i] = load_scalar(bytes.data(), type, static_cast<int64_t>(i));
    return v;
}

// An RNN and its buffers on the backend under test.
class Case {
public:
    Case(const RnnProblem &p, const Optional &o)
        : p_(p),
          o_(o),
          dropout_(p.dropout > 0 ? std::make_unique<RnnDropout>(handle_, p.dropout, 7) : nullptr),
          desc_(p, dropout_ ? static_cast<cudnnDropoutDescriptor_t>(*dropout_) : nullptr),
          x_desc_(p, p.net.input_size),
          y_desc_(p, p.y_size()),
          h_desc_(p, p.net.proj_size),
          c_desc_(p, p.net.hidden_size) {
        EXPECT_EQ(cudnnGetRNNWeightSpaceSize(handle_, desc_, &weight_bytes_), CUDNN_STATUS_SUCCESS);
        status_ =
            cudnnGetRNNTempSpaceSizes(handle_, desc_, CUDNN_FWD_MODE_TRAINING, x_desc_, &work_bytes_, &reserve_bytes_);
    }
    cudnnStatus_t sizes_status() const { return status_; }

    // The loss of the forward pass (inference; training, with the first call's mask, when dropout between
    // layers is on) with these inputs.
    double loss(const Inputs &in) {
        const cudnnDataType_t type = p_.net.data_type;
        DeviceBuffer x(bytes_of(in.x, type)), w(bytes_of(in.w, type)), hx(bytes_of(in.hx, type)),
            cx(bytes_of(in.cx, type));
        const int64_t ys = rnn_data_elements(p_, p_.y_size());
        DeviceBuffer y(std::vector<uint8_t>(static_cast<size_t>(std::max<int64_t>(ys, 1)) * data_type_size(type))),
            hy(bytes_of(std::vector<double>(h_count(), 0.0), type)),
            cy(bytes_of(std::vector<double>(c_count(), 0.0), type));
        DeviceBuffer work(std::vector<uint8_t>(work_bytes_ + 1));
        const bool dropped = p_.dropout_between_layers();
        DeviceBuffer reserve(std::vector<uint8_t>(dropped ? reserve_bytes_ + 1 : 1));
        if (dropped) dropout_->reset(handle_);
        EXPECT_EQ(
            cudnnRNNForward(handle_, desc_, dropped ? CUDNN_FWD_MODE_TRAINING : CUDNN_FWD_MODE_INFERENCE,
                            p_.seq_lengths.data(), x_desc_, x.get(), y_desc_, y.get(), h_desc_,
                            o_.hx ? hx.get() : nullptr, o_.dhy ? hy.get() : nullptr, c_desc_,
                            o_.cx ? cx.get() : nullptr, o_.dcy ? cy.get() : nullptr, weight_bytes_, w.get(),
                            work_bytes_, work.get(), dropped ? reserve_bytes_ : 0, dropped ? reserve.get() : nullptr),
            CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        double sum = 0;
        const std::vector<double> yv = doubles_of(y.download(), type, static_cast<size_t>(ys));
        for (int t = 0; t < p_.max_seq_length; ++t)
            for (int n = 0; n < p_.batch_size; ++n)
                for (int i = 0; i < p_.y_size() && valid(p_, t, n); ++i) {
                    const int64_t at = rnn_data_offset(p_, p_.y_size(), t, n, i);
                    sum += in.dy[at] * yv[at];
                }
        if (o_.dhy) {
            const std::vector<double> v = doubles_of(hy.download(), type, in.dhy.size());
            for (size_t i = 0; i < v.size(); ++i) sum += in.dhy[i] * v[i];
        }
        if (o_.dcy) {
            const std::vector<double> v = doubles_of(cy.download(), type, in.dcy.size());
            for (size_t i = 0; i < v.size(); ++i) sum += in.dcy[i] * v[i];
        }
        return sum;
    }

    struct Gradients {
        std::vector<double> dx, dhx, dcx, dw;
    };
    // Training forward, backward data, backward weights (addGrad onto `dw_start`, or SET over NaN).
    Gradients backward(const Inputs &in, cudnnWgradMode_t mode = CUDNN_WGRAD_MODE_SET,
                       const std::vector<double> *dw_start = nullptr) {
        const cudnnDataType_t type = p_.net.data_type;
        DeviceBuffer x(bytes_of(in.x, type)), w(bytes_of(in.w, type)), hx(bytes_of(in.hx, type)),
            cx(bytes_of(in.cx, type)), dy(bytes_of(in.dy, type)), dhy(bytes_of(in.dhy, type)),
            dcy(bytes_of(in.dcy, type));
        const int64_t ys = rnn_data_elements(p_, p_.y_size()), xs = rnn_data_elements(p_, p_.net.input_size);
        const double nan = std::numeric_limits<double>::quiet_NaN();
        DeviceBuffer y(bytes_of(std::vector<double>(static_cast<size_t>(ys), nan), type)),
            dx(bytes_of(std::vector<double>(static_cast<size_t>(xs), nan), type)),
            dhx(bytes_of(std::vector<double>(h_count(), nan), type)),
            dcx(bytes_of(std::vector<double>(c_count(), nan), type)),
            dw(bytes_of(dw_start ? *dw_start : std::vector<double>(in.w.size(), nan), type));
        DeviceBuffer work(std::vector<uint8_t>(work_bytes_ + 1, 0xff)),
            reserve(std::vector<uint8_t>(reserve_bytes_ + 1, 0xff));
        if (dropout_) dropout_->reset(handle_);
        Gradients g;
        EXPECT_EQ(
            cudnnRNNForward(handle_, desc_, CUDNN_FWD_MODE_TRAINING, p_.seq_lengths.data(), x_desc_, x.get(), y_desc_,
                            y.get(), h_desc_, o_.hx ? hx.get() : nullptr, nullptr, c_desc_, o_.cx ? cx.get() : nullptr,
                            nullptr, weight_bytes_, w.get(), work_bytes_, work.get(), reserve_bytes_, reserve.get()),
            CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        EXPECT_EQ(cudnnRNNBackwardData_v8(handle_, desc_, p_.seq_lengths.data(), y_desc_, y.get(), dy.get(), x_desc_,
                                          dx.get(), h_desc_, o_.hx ? hx.get() : nullptr, o_.dhy ? dhy.get() : nullptr,
                                          o_.dhx ? dhx.get() : nullptr, c_desc_, o_.cx ? cx.get() : nullptr,
                                          o_.dcy ? dcy.get() : nullptr, o_.dcx ? dcx.get() : nullptr, weight_bytes_,
                                          w.get(), work_bytes_, work.get(), reserve_bytes_, reserve.get()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        EXPECT_EQ(cudnnRNNBackwardWeights_v8(handle_, desc_, mode, p_.seq_lengths.data(), x_desc_, x.get(), h_desc_,
                                             o_.hx ? hx.get() : nullptr, y_desc_, y.get(), weight_bytes_, dw.get(),
                                             work_bytes_, work.get(), reserve_bytes_, reserve.get()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        g.dx = doubles_of(dx.download(), type, static_cast<size_t>(xs));
        g.dhx = doubles_of(dhx.download(), type, h_count());
        g.dcx = doubles_of(dcx.download(), type, c_count());
        g.dw = doubles_of(dw.download(), type, in.w.size());
        return g;
    }

    // The weight space's matrices and biases as the reference takes them, read from `space` (weight-space
    // elements) at the places cudnnGetRNNWeightParams gives; `places` gets the weight-space element of each value
    // in the reference's order (matrices then biases, by pseudo-layer and linLayerID).
    reference::RnnWeights weights_of(const std::vector<double> &space, std::vector<int64_t> *places) {
        const RnnNetwork &n = p_.net;
        std::vector<uint8_t> base(weight_bytes_ + 1);
        TensorDescriptorHandle m_desc, b_desc;
        reference::RnnWeights w;
        w.matrices.assign(static_cast<size_t>(n.pseudo_layers()), {});
        w.biases.assign(static_cast<size_t>(n.pseudo_layers()), {});
        std::vector<int64_t> matrix_places, bias_places;
        for (int pl = 0; pl < n.pseudo_layers(); ++pl) {
            w.matrices[pl].assign(static_cast<size_t>(n.lin_layer_ids()), {});
            w.biases[pl].assign(static_cast<size_t>(n.lin_layer_ids()), {});
            for (int id = 0; id < n.lin_layer_ids(); ++id) {
                void *m = nullptr, *b = nullptr;
                EXPECT_EQ(
                    cudnnGetRNNWeightParams(handle_, desc_, pl, weight_bytes_, base.data(), id, m_desc, &m, b_desc, &b),
                    CUDNN_STATUS_SUCCESS)
                    << last_failure_reason();
                for (auto [address, tensor, out, order] :
                     {std::make_tuple(m, m_desc.get(), &w.matrices[pl][id], &matrix_places),
                      std::make_tuple(b, b_desc.get(), &w.biases[pl][id], &bias_places)}) {
                    if (address == nullptr) continue;
                    cudnnDataType_t t;
                    int nb = 0, dims[3], strides[3];
                    EXPECT_EQ(cudnnGetTensorNdDescriptor(tensor, 3, &t, &nb, dims, strides), CUDNN_STATUS_SUCCESS);
                    const int64_t offset = (static_cast<uint8_t *>(address) - base.data()) /
                                           static_cast<int64_t>(data_type_size(p_.net.data_type));
                    for (int64_t i = 0; i < static_cast<int64_t>(dims[1]) * dims[2]; ++i) {
                        out->push_back(space[static_cast<size_t>(offset + i)]);
                        order->push_back(offset + i);
                    }
                }
            }
        }
        *places = matrix_places;
        places->insert(places->end(), bias_places.begin(), bias_places.end());
        return w;
    }

    // The dropout factors every training forward of this case draws (its states are reset before each), as
    // docs/RNN.md documents them; empty without dropout between layers.
    std::vector<double> dropout_factors() const {
        if (!p_.dropout_between_layers()) return {};
        const DropoutState states = dropout_->state();  // the key; the reset states have counted no call
        return documented_dropout_factors(p_, states.key, 0);
    }

    size_t h_count() const { return static_cast<size_t>(p_.net.pseudo_layers()) * p_.batch_size * p_.net.proj_size; }
    size_t c_count() const { return static_cast<size_t>(p_.net.pseudo_layers()) * p_.batch_size * p_.net.hidden_size; }

private:
    RnnProblem p_;
    Optional o_;
    Handle handle_;
    std::unique_ptr<RnnDropout> dropout_;
    RnnDescriptor desc_;
    DataDescriptor x_desc_, y_desc_;
    StateDescriptor h_desc_, c_desc_;
    size_t weight_bytes_ = 0, work_bytes_ = 0, reserve_bytes_ = 0;
    cudnnStatus_t status_ = CUDNN_STATUS_SUCCESS;
};

std::string describe(const RnnProblem &p, const Optional &o) {
    return to_problem_string(p).to_string() + " hx=" + std::to_string(o.hx) + " cx=" + std::to_string(o.cx) +
           " dhy=" + std::to_string(o.dhy) + " dcy=" + std::to_string(o.dcy) + " dhx=" + std::to_string(o.dhx) +
           " dcx=" + std::to_string(o.dcx);
}

// Central differences in double: h = 1e-6 leaves a truncation error of order h^2 |L'''| (about 1e-11
// here) and a rounding error of order 1e-16 |L| / h (about 1e-9); 1e-6 (1 + |g|) is far above both
// and far below any wrong term (the inputs are of order 1). ReLU cells (and clipping) make the loss
// piecewise smooth: where a pre-activation lies within h of a kink, the central difference averages two
// slopes (seed 7875323989759716194 failed so, on dw of a bidirectional ReLU RNN). There the one-sided
// differences disagree, and the gradient must be one of them: the slope on the side x lies on, to within
// their truncation error h |L''| (1e-4 (1 + |g|) covers it). A wrong gradient would have to meet a kink and
// a one-sided slope both.
void check_gradients(Random &rng, const RnnProblem &p, const Optional &o) {
    const std::string text = describe(p, o);
    SCOPED_TRACE(text);
    Case c(p, o);
    ASSERT_EQ(c.sizes_status(), CUDNN_STATUS_SUCCESS) << last_failure_reason();
    Inputs in = random_inputs(rng, p, o);
    const Case::Gradients g = c.backward(in);
    const double h = 1e-6;
    auto check = [&](double got, std::vector<double> *values, size_t i, const char *name) {
        const double keep = (*values)[i];
        (*values)[i] = keep + h;
        const double up = c.loss(in);
        (*values)[i] = keep - h;
        const double down = c.loss(in);
        (*values)[i] = keep;
        const double central = (up - down) / (2 * h);
        if (std::fabs(got - central) <= 1e-6 * (1 + std::fabs(central))) return;
        const double at = c.loss(in), forward = (up - at) / h, backward = (at - down) / h;
        const bool kink = std::fabs(forward - backward) > 1e-3 * (1 + std::fabs(central));
        const double one_sided = 1e-4 * (1 + std::fabs(got));
        if (kink && (std::fabs(got - forward) <= one_sided || std::fabs(got - backward) <= one_sided)) return;
        ADD_FAILURE() << name << "[" << i << "] is " << got << ", the central difference " << central
                      << " (one-sided: " << backward << ", " << forward << ")\n  " << text;
    };
    for (int t = 0; t < p.max_seq_length; ++t)
        for (int n = 0; n < p.batch_size; ++n)
            for (int i = 0; i < p.net.input_size; ++i) {
                const int64_t at = rnn_data_offset(p, p.net.input_size, t, n, i);
                if (at < 0) continue;
                if (!valid(p, t, n)) {
                    EXPECT_EQ(g.dx[at], 0.0) << "dx's padding at t " << t << " n " << n;
                    continue;
                }
                check(g.dx[at], &in.x, static_cast<size_t>(at), "dx");
            }
    // Without hx (cx) the loss does not depend on it: its gradient is only checked to be a number.
    if (o.dhx)
        for (size_t i = 0; i < g.dhx.size(); ++i) {
            if (o.hx)
                check(g.dhx[i], &in.hx, i, "dhx");
            else
                EXPECT_TRUE(std::isfinite(g.dhx[i])) << "dhx[" << i << "]";
        }
    if (o.dcx)
        for (size_t i = 0; i < g.dcx.size(); ++i) {
            if (o.cx)
                check(g.dcx[i], &in.cx, i, "dcx");
            else
                EXPECT_TRUE(std::isfinite(g.dcx[i])) << "dcx[" << i << "]";
        }
    for (size_t i = 0; i < g.dw.size(); ++i) check(g.dw[i], &in.w, i, "dw");
}

TEST(RnnBackward, MatchesCentralDifferencesOnRandomNetworks) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 60; ++trial) {
        const RnnProblem p = random_problem(rng, CUDNN_DATA_DOUBLE);
        check_gradients(rng, p, random_optional(rng, p.net));
    }
}

// Each cell, direction, layer count, input mode and layout at least once, every optional buffer passed
// (dhx and dcx checked against hx and cx), lengths unequal.
TEST(RnnBackward, MatchesCentralDifferencesForEachCellDirectionAndLayout) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (cudnnRNNMode_t cell : {CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU})
        for (bool bidirectional : {false, true})
            for (cudnnRNNDataLayout_t layout :
                 {CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED,
                  CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED})
                for (bool skip : {false, true}) {
                    RnnProblem p = random_problem(rng, CUDNN_DATA_DOUBLE);
                    p.net.cell = cell;
                    p.net.bidirectional = bidirectional;
                    p.net.layers = 2;
                    p.net.hidden_size = 3;
                    p.net.skip_input = skip;
                    p.net.input_size = skip ? 3 : 2;
                    p.net.proj_size = cell == CUDNN_LSTM && !skip ? 2 : 3;
                    p.net.bias_mode = CUDNN_RNN_DOUBLE_BIAS;
                    p.layout = layout;
                    p.max_seq_length = 4;
                    p.batch_size = 3;
                    p.seq_lengths = {4, 2, 3};
                    if (layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED) p.seq_lengths = {4, 3, 1};
                    const bool lstm = cell == CUDNN_LSTM;
                    check_gradients(rng, p, {true, lstm, true, lstm, true, lstm});
                }
}

// Dropout between layers (2 or 3 layers, every cell) and LSTM cell clipping (every other trial, bounds that
// clip often): the gradient reaching a lower layer goes through the forward's mask, and stops at a clipped c.
TEST(RnnBackward, MatchesCentralDifferencesWithDropoutAndClipping) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const cudnnRNNMode_t cells[] = {CUDNN_LSTM, CUDNN_RNN_TANH, CUDNN_LSTM, CUDNN_GRU, CUDNN_LSTM, CUDNN_RNN_RELU};
    for (int trial = 0; trial < 12; ++trial) {
        RnnProblem p = random_problem(rng, CUDNN_DATA_DOUBLE);
        p.net.cell = cells[trial % 6];
        if (p.net.cell != CUDNN_LSTM) p.net.proj_size = p.net.hidden_size;
        p.net.layers = trial < 10 ? 2 : 3;
        p.dropout = trial % 4 == 2 ? 0.0f : rng.pick<float>({0.3f, 0.6f});  // 2, 6, 10: clipping alone
        if (p.net.cell == CUDNN_LSTM) {
            p.clipping = true;
            p.lclip = -rng.uniform(0.05, 0.3);
            p.rclip = rng.uniform(0.05, 0.3);
        }
        check_gradients(rng, p, random_optional(rng, p.net));
    }
}

// float and half against the reference's backward pass run over intervals (rnn_error_bound.hpp,
// backward_balls): each gradient's reference value and how far float arithmetic may take a backend from it, the
// forward's own errors included, every product counted as TF32 where the math type allows it (each off by
// 2^-10 of itself, its sum by 4 u an addition), each element-wise step 16 u (docs/NUMERICS.md, "RNNs"). Half
// data computes in float and rounds its outputs to half (tolerance_for(half)). Every other pair of trials runs
// under CUDNN_FMA_MATH, the rest under the default math; one network of three with several layers drops out
// between them (the reference takes the forward's documented factors).
// One trial of the comparison below: a random network of `type` under `math`, `batch` sequences (0: 1 to 3),
// `hidden` units without a projection (0: random_problem's choice). Returns false, comparing nothing, where a
// gradient lies beyond half's range (a wide ReLU network's can: half data cannot hold it).
bool expect_float_or_half_matches_double(Random &rng, cudnnDataType_t type, cudnnMathType_t math, int batch,
                                         int hidden = 0) {
    RnnProblem p = random_problem(rng, type, batch, hidden);
    p.net.math_type = math;
    // Dropout between layers in one trial of three that has them: the gradient reaching a lower layer, and its
    // input in the weight gradients, go through the forward's factors.
    if (p.net.layers > 1 && rng.integer(0, 2) == 0) p.dropout = rng.pick<float>({0.3f, 0.6f});
    const Optional o = random_optional(rng, p.net);
    const std::string text = describe(p, o);
    SCOPED_TRACE(text);
    const Inputs in = random_inputs(rng, p, o);
    Case low(p, o);
    const cudnnStatus_t sizes = low.sizes_status();
    EXPECT_EQ(sizes, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    if (sizes != CUDNN_STATUS_SUCCESS) return true;  // the failure is reported
    const Case::Gradients got = low.backward(in);
    std::vector<int64_t> places;
    const reference::RnnWeights weights = low.weights_of(in.w, &places);
    const RnnNetwork &n = p.net;
    const int T = p.max_seq_length, N = p.batch_size;
    const BackwardBalls<FloatRounding> want =
        backward_balls<FloatRounding>(p, config_of(p), weights, dense_of(p, in.x, n.input_size), in.hx, in.cx,
                                      dense_of(p, in.dy, p.y_size()), in.dhy, in.dcy, low.dropout_factors());
    EXPECT_TRUE(want.ok) << last_failure_reason();
    if (!want.ok) return true;
    std::vector<Ball<FloatRounding>> want_dw(in.w.size());
    std::vector<bool> mapped(in.w.size(), false);  // weight-space elements that hold a weight
    {
        size_t k = 0;
        for (const auto *group : {&want.dw.matrices, &want.dw.biases})
            for (const auto &layer : *group)
                for (const auto &values : layer)
                    for (const Ball<FloatRounding> &v : values) {
                        want_dw[static_cast<size_t>(places[k])] = v;
                        mapped[static_cast<size_t>(places[k++])] = true;
                    }
    }
    double magnitude = 0;
    using Balls = std::vector<Ball<FloatRounding>>;
    for (const Balls *v : std::initializer_list<const Balls *>{&want.dx, &want.dhx, &want.dcx, &want_dw})
        for (const Ball<FloatRounding> &b : *v)
            if (std::isfinite(b.mid)) magnitude = std::max(magnitude, std::fabs(b.mid));
    if (type == CUDNN_DATA_HALF && magnitude > 65504.0) return false;
    const Tolerance tol = tolerance_for(type);
    bool ok = true;
    const auto compare = [&](double value, const Ball<FloatRounding> &ball, const std::string &what) {
        // A radius that overflowed (inf times 0 makes NaN) allows anything: the bound says nothing there.
        const double rad = std::isnan(ball.rad) ? HUGE_VAL : ball.rad;
        if (!ok || std::fabs(value - ball.mid) <= allowed_error_for(tol, ball.mid, rad)) return;
        ADD_FAILURE() << what << " is " << value << ", the reference " << ball.mid << " (allowed "
                      << allowed_error_for(tol, ball.mid, rad) << ")\n  " << text;
        ok = false;
    };
    for (int t = 0; t < T; ++t)
        for (int b = 0; b < N; ++b)
            for (int i = 0; i < n.input_size && valid(p, t, b); ++i)
                compare(got.dx[rnn_data_offset(p, n.input_size, t, b, i)],
                        want.dx[(static_cast<size_t>(t) * N + b) * n.input_size + i],
                        "dx at t " + std::to_string(t) + " n " + std::to_string(b) + " i " + std::to_string(i));
    for (size_t i = 0; o.dhx && i < want.dhx.size(); ++i)
        compare(got.dhx[i], want.dhx[i], "dhx[" + std::to_string(i) + "]");
    for (size_t i = 0; o.dcx && i < want.dcx.size(); ++i)
        compare(got.dcx[i], want.dcx[i], "dcx[" + std::to_string(i) + "]");
    for (size_t i = 0; i < want_dw.size(); ++i)
        if (mapped[i]) compare(got.dw[i], want_dw[i], "dw[" + std::to_string(i) + "]");
    return true;
}

// Double data against the reference's backward pass (reference/rnn_backward.hpp: backpropagation through time
// of the reference forward, written independently of the backends) on random networks of every cell, with and
// without projection, bias modes, skip input, directions, layers, layouts, lengths (0 included), clipping and
// the optional states, and dropout between layers (the forward's documented factors). Both compute in double, in
// different orders: the bound is the float comparison's below with double's unit roundoff and element-wise step.
TEST(RnnBackward, MatchesTheReferenceBackwardPass) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        RnnProblem p = random_problem(rng, CUDNN_DATA_DOUBLE);
        p.net.layers = static_cast<int>(rng.integer(1, 3));
        if (p.net.layers > 1 && rng.coin()) p.dropout = rng.pick<float>({0.3f, 0.6f});
        if (p.net.cell == CUDNN_LSTM && rng.coin()) {
            p.clipping = true;
            p.lclip = -rng.uniform(0.05, 0.3);
            p.rclip = rng.uniform(0.05, 0.3);
        }
        const Optional o = random_optional(rng, p.net);
        const std::string text = describe(p, o);
        SCOPED_TRACE(text);
        const Inputs in = random_inputs(rng, p, o);
        Case library(p, o);
        ASSERT_EQ(library.sizes_status(), CUDNN_STATUS_SUCCESS) << last_failure_reason();
        const Case::Gradients got = library.backward(in);
        std::vector<int64_t> places;
        const reference::RnnWeights weights = library.weights_of(in.w, &places);
        const RnnNetwork &n = p.net;
        const int T = p.max_seq_length, N = p.batch_size, Y = p.y_size();
        const auto dense = [&](const std::vector<double> &data, int width) { return dense_of(p, data, width); };
        std::vector<double> dx, dhx, dcx;
        reference::RnnWeights dw;
        ASSERT_EQ(
            reference::rnn_backward(config_of(p), weights, T, p.seq_lengths, dense(in.x, n.input_size), in.hx, in.cx,
                                    dense(in.dy, Y), in.dhy, in.dcy, &dx, &dhx, &dcx, &dw, library.dropout_factors()),
            CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        std::vector<double> want_dw(in.w.size(), 0.0);
        std::vector<bool> mapped(in.w.size(), false);  // weight-space elements that hold a weight
        {
            size_t k = 0;
            for (const auto *group : {&dw.matrices, &dw.biases})
                for (const auto &layer : *group)
                    for (const auto &values : layer)
                        for (double v : values) {
                            want_dw[static_cast<size_t>(places[k])] = v;
                            mapped[static_cast<size_t>(places[k++])] = true;
                        }
        }
        double magnitude = 1;
        for (const std::vector<double> *v : {&dx, &dhx, &dcx, &want_dw})
            for (double d : *v)
                if (std::isfinite(d)) magnitude = std::max(magnitude, std::fabs(d));
        const int widest = std::max(n.input_size, Y);
        const double terms = n.gates() * (widest + n.proj_size + 2) + 2;
        const double depth = static_cast<double>(T) * n.layers + 1;
        const double u = accumulation_roundoff(CUDNN_DATA_DOUBLE);
        const double data_error = depth * (sum_error(terms, terms * magnitude, u) + kDoubleStepEps * terms * magnitude);
        const double weight_error = data_error * (1 + T * N);
        const Tolerance tol = tolerance_for(CUDNN_DATA_DOUBLE);
        const auto compare = [&](double got_value, double want, const std::string &what, double error) {
            if (!(std::fabs(got_value - want) <= allowed_error_for(tol, want, error)))
                ADD_FAILURE() << what << " is " << got_value << ", the reference " << want << " (allowed "
                              << allowed_error_for(tol, want, error) << ")";
            return std::fabs(got_value - want) <= allowed_error_for(tol, want, error);
        };
        bool ok = true;
        for (int t = 0; t < T && ok; ++t)
            for (int b = 0; b < N && ok; ++b)
                for (int i = 0; i < n.input_size && ok && valid(p, t, b); ++i)
                    ok = compare(got.dx[rnn_data_offset(p, n.input_size, t, b, i)],
                                 dx[(static_cast<size_t>(t) * N + b) * n.input_size + i],
                                 "dx at t " + std::to_string(t) + " n " + std::to_string(b) + " i " + std::to_string(i),
                                 data_error);
        for (size_t i = 0; i < dhx.size() && ok && o.dhx; ++i)
            ok = compare(got.dhx[i], dhx[i], "dhx[" + std::to_string(i) + "]", data_error);
        for (size_t i = 0; i < dcx.size() && ok && o.dcx; ++i)
            ok = compare(got.dcx[i], dcx[i], "dcx[" + std::to_string(i) + "]", data_error);
        for (size_t i = 0; i < want_dw.size() && ok; ++i)
            if (mapped[i]) ok = compare(got.dw[i], want_dw[i], "dw[" + std::to_string(i) + "]", weight_error);
    }
}

TEST(RnnBackward, FloatAndHalfMatchDouble) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial)
        expect_float_or_half_matches_double(rng, trial % 2 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT,
                                            trial / 2 % 2 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH, 0);
}

// Batches of kRnnTensorCoreStepBatch sequences and more: on CUDA every recurrence step's products (R^T dG,
// P^T dh, the GRU's R_h h + b_Rh; forward R h + b_R, P h) run on the implicit GEMM with k split over blocks,
// on TF32 under the default math (the same 2^-10 of each product as above).
TEST(RnnBackward, FloatAndHalfMatchDoubleOnBatchesOfTensorCoreSteps) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 8; ++trial) {
        const int batch = static_cast<int>(rng.integer(kRnnTensorCoreStepBatch, kRnnTensorCoreStepBatch + 24));
        expect_float_or_half_matches_double(rng, trial % 2 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT,
                                            trial / 2 % 2 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH, batch);
    }
}

// Hidden sizes of a multiple of 8 without a projection, from batches of 32 (kRnnFusedStepBatch): on CUDA each
// forward step is one kernel (cuda/rnn/rnn_fused_step.hpp), so the training forward's reserve space, which
// backward data and weights read, comes from it; unequal lengths, 0 included.
TEST(RnnBackward, FloatAndHalfMatchDoubleOnFusedSteps) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 8; ++trial) {
        const int batch = static_cast<int>(rng.integer(32, 80));
        expect_float_or_half_matches_double(rng, trial % 2 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT,
                                            trial / 2 % 2 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH, batch,
                                            8 * static_cast<int>(rng.integer(1, 3)));
    }
}

// Small batches without a projection: on CUDA the training forward and the backward-data steps of a pseudo-layer
// each run in one persistent kernel (cuda/rnn/rnn_persistent.hpp, batches up to 16; the GRU's R_h h + b_Rh of every
// step first in one product), the gate gradients of a step exchanged between blocks through the workspace. Hidden
// sizes of one unit a block to several (the SMs not dividing them), multiples of 4 and not; batches of 1 to 16.
// Half trials whose gradients overflow half (wide ReLU networks) are drawn again, up to 40 draws for 8 trials.
TEST(RnnBackward, FloatAndHalfMatchDoubleOnPersistentSteps) {
    LIBREDNN_SEEDED_RANDOM(rng);
    int compared = 0;
    for (int draw = 0; draw < 40 && compared < 8; ++draw) {
        const int hidden = rng.pick<int>({37, 140, 300, 521});
        const int batch = hidden > 300 ? rng.pick<int>({1, 3}) : rng.pick<int>({1, 2, 5, 16});
        if (expect_float_or_half_matches_double(rng, compared % 2 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT,
                                                compared / 2 % 2 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH, batch, hidden))
            ++compared;
    }
    EXPECT_EQ(compared, 8) << "too many draws overflowed half";
}

// Batches of 17 to 64 without a projection: on CUDA all the backward-data steps of a pseudo-layer run in one
// launch of clusters (cuda/rnn/rnn_cluster_backward.hpp), R^T dG on TF32 tensor cores; with LIBREDNN_RNN_CLUSTER_STEP=0
// (the OpsCuda.RnnSplitSteps test) each step is the cells then R^T dG with the sum split over blocks
// (cuda/rnn/rnn_split_product.hpp), the next step's cells adding the parts. Hidden sizes below and across the split
// product's 64-column tiles, a multiple of 4 and not (30: the unfused steps of the split path), 400 (a split takes
// more than one 32-term slice; 13 clusters of 32 units, the last partly used, and slices padded past gates x
// hidden), 520 and 600 (clusters of 72 units, the last partly used);
// unequal lengths, 0 included. Three trials in four under the default math (CUDNN_FMA_MATH keeps the unfused steps).
TEST(RnnBackward, FloatAndHalfMatchDoubleOnSplitSteps) {
    LIBREDNN_SEEDED_RANDOM(rng);
    int compared = 0;
    for (int draw = 0; draw < 40 && compared < 8; ++draw) {
        const int hidden = compared == 0 ? 400 : compared == 1 ? 600 : rng.pick<int>({20, 30, 68, 132, 264, 520});
        const int batch = static_cast<int>(hidden > 300 ? rng.integer(17, 20) : rng.integer(17, 64));
        if (expect_float_or_half_matches_double(rng, compared % 2 ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT,
                                                compared % 4 == 3 ? CUDNN_FMA_MATH : CUDNN_DEFAULT_MATH, batch, hidden))
            ++compared;
    }
    EXPECT_EQ(compared, 8) << "too many draws overflowed half";
}

TEST(RnnBackward, AddGradAddsAndSetOverwrites) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 8; ++trial) {
        const RnnProblem p = random_problem(rng, CUDNN_DATA_DOUBLE);
        const Optional o = random_optional(rng, p.net);
        SCOPED_TRACE(describe(p, o));
        Case c(p, o);
        const Inputs in = random_inputs(rng, p, o);
        const Case::Gradients set = c.backward(in);
        std::vector<double> start;
        for (size_t i = 0; i < in.w.size(); ++i) start.push_back(rng.uniform(-2.0, 2.0));
        const Case::Gradients added = c.backward(in, CUDNN_WGRAD_MODE_ADD, &start);
        const Case::Gradients set_again = c.backward(in, CUDNN_WGRAD_MODE_SET, &start);
        for (size_t i = 0; i < start.size(); ++i) {
            EXPECT_NEAR(added.dw[i], start[i] + set.dw[i], 1e-12 * (1 + std::fabs(start[i]))) << "dw[" << i << "]";
            EXPECT_EQ(set_again.dw[i], set.dw[i]) << "dw[" << i << "]";
        }
    }
}

TEST(RnnBackwardRejects, DocumentedMisuse) {
    Handle handle;
    RnnProblem p;
    p.net.cell = CUDNN_LSTM;
    p.net.input_size = 3;
    p.net.hidden_size = p.net.proj_size = 4;
    p.net.layers = 2;
    p.max_seq_length = 3;
    p.batch_size = 2;
    p.seq_lengths = {3, 2};
    p.training = true;
    RnnDescriptor desc(p.net);
    DataDescriptor x_desc(p, 3), y_desc(p, 4), wrong_y(p, 5);
    RnnProblem shorter = p;
    shorter.seq_lengths = {3, 1};
    DataDescriptor other_lengths(shorter, 4);
    StateDescriptor h_desc(p, 4);
    size_t wb = 0, kb = 0, rb = 0;
    ASSERT_EQ(cudnnGetRNNWeightSpaceSize(handle, desc, &wb), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetRNNTempSpaceSizes(handle, desc, CUDNN_FWD_MODE_TRAINING, x_desc, &kb, &rb), CUDNN_STATUS_SUCCESS);
    // Device memory on the CUDA backend: the calls expected to succeed run.
    const auto zeros = [](size_t bytes) { return std::vector<uint8_t>(bytes + 4, 0); };
    DeviceBuffer x(zeros(256)), y(zeros(256)), dy(zeros(256)), dx(zeros(256)), w(zeros(wb)), dw(zeros(wb)),
        work(zeros(kb)), reserve(zeros(rb));
    const int32_t *lengths = p.seq_lengths.data();
    ASSERT_EQ(
        cudnnRNNForward(handle, desc, CUDNN_FWD_MODE_TRAINING, lengths, x_desc, x.get(), y_desc, y.get(), h_desc,
                        nullptr, nullptr, nullptr, nullptr, nullptr, wb, w.get(), kb, work.get(), rb, reserve.get()),
        CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    auto data = [&](cudnnRNNDataDescriptor_t yd, const void *dyp, void *dxp, size_t k, size_t r, void *res) {
        return cudnnRNNBackwardData_v8(handle, desc, lengths, yd, y.get(), dyp, x_desc, dxp, h_desc, nullptr, nullptr,
                                       nullptr, nullptr, nullptr, nullptr, nullptr, wb, w.get(), k, work.get(), r, res);
    };
    auto weights = [&](cudnnWgradMode_t mode, cudnnRNNDataDescriptor_t yd, const void *xp, void *dwp, size_t k,
                       size_t r, void *res) {
        return cudnnRNNBackwardWeights_v8(handle, desc, mode, lengths, x_desc, xp, h_desc, nullptr, yd, y.get(), wb,
                                          dwp, k, work.get(), r, res);
    };
    EXPECT_EQ(data(y_desc, dy.get(), dx.get(), kb, rb, reserve.get()), CUDNN_STATUS_SUCCESS) << last_failure_reason();
    EXPECT_EQ(weights(CUDNN_WGRAD_MODE_SET, y_desc, x.get(), dw.get(), kb, rb, reserve.get()), CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(y_desc, dy.get(), dx.get(), kb, rb - 4, reserve.get()),
                    "reserveSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(y_desc, dy.get(), dx.get(), kb - 4, rb, reserve.get()),
                    "workSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(wrong_y, dy.get(), dx.get(), kb, rb, reserve.get()), "vectorSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(other_lengths, dy.get(), dx.get(), kb, rb, reserve.get()),
                    "the lengths must be the same");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(y_desc, nullptr, dx.get(), kb, rb, reserve.get()), "dy");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(y_desc, dy.get(), nullptr, kb, rb, reserve.get()), "dx");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, data(y_desc, dy.get(), dx.get(), kb, rb, nullptr), "reserveSpace");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    weights(CUDNN_WGRAD_MODE_ADD, y_desc, x.get(), dw.get(), kb, rb - 4, reserve.get()),
                    "reserveSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    weights(CUDNN_WGRAD_MODE_ADD, y_desc, x.get(), dw.get(), kb - 4, rb, reserve.get()),
                    "workSpaceSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    weights(CUDNN_WGRAD_MODE_ADD, wrong_y, x.get(), dw.get(), kb, rb, reserve.get()), "vectorSize");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    weights(CUDNN_WGRAD_MODE_ADD, y_desc, nullptr, dw.get(), kb, rb, reserve.get()), "x");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    weights(CUDNN_WGRAD_MODE_ADD, y_desc, x.get(), nullptr, kb, rb, reserve.get()), "dweightSpace");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    weights(static_cast<cudnnWgradMode_t>(7), y_desc, x.get(), dw.get(), kb, rb, reserve.get()),
                    "addGrad");
}

TEST(RnnBackwardProblemString, RoundTrips) {
    for (RnnDirection d : {RnnDirection::backward_data, RnnDirection::backward_weights}) {
        RnnProblem p;
        p.direction = d;
        p.seq_lengths = {1};
        RnnProblem back;
        std::string error;
        ASSERT_TRUE(parse_rnn_problem(to_problem_string(p), &back, &error)) << error;
        EXPECT_TRUE(back == p) << to_problem_string(back).to_string();
    }
}

}  // namespace
