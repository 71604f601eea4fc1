// Tests for the self-test's own references: small cases worked by hand, the adjoint identities of the
// convolution's backward passes, and agreement with LibreDNN's references (src/reference, the LSTM's too) on
// random problems, so that the doctor judges every library by the same arithmetic LibreDNN's tests use.
#include "selftest_reference.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "reference/batch_norm.hpp"
#include "reference/convolution.hpp"
#include "reference/pooling.hpp"
#include "reference/rnn.hpp"

namespace librednn::doctor {
namespace {

using reference::Conv2d;
using reference::Pool2d;
using reference::Shape4;

std::vector<float> random_values(std::mt19937 &random, int64_t count) {
    std::uniform_real_distribution<float> distribution(-1, 1);
    std::vector<float> values(static_cast<size_t>(count));
    for (float &value : values) value = distribution(random);
    return values;
}

double dot(const std::vector<float> &a, const std::vector<double> &b) {
    double sum = 0;
    for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
    return sum;
}

// LibreDNN's reference view of a packed NCHW float vector.
librednn::reference::TensorView view(std::vector<float> &data, const Shape4 &shape) {
    const std::vector<int64_t> dims = {shape.n, shape.c, shape.h, shape.w};
    return {CUDNN_DATA_FLOAT, dims, librednn::reference::packed_strides(dims), data.data()};
}

TEST(SelftestReference, ConvolutionOfAWorkedExample) {
    const Shape4 xs{1, 1, 3, 3}, ws{1, 1, 2, 2};
    const std::vector<float> x = {1, 2, 3, 4, 5, 6, 7, 8, 9}, w = {1, 0, 0, 1};
    EXPECT_EQ(reference::convolution_forward(Conv2d{}, xs, x, ws, w), (std::vector<double>{6, 8, 12, 14}));
    // With padding 1 the corner output sees only x[0][0] through w[1][1].
    const Conv2d padded{1, 1, 1, 1, 1, 1};
    EXPECT_EQ(padded.output(xs, ws).h, 4);
    EXPECT_EQ(reference::convolution_forward(padded, xs, x, ws, w)[0], 1.0);
}

TEST(SelftestReference, BackwardPassesAreTheAdjointsOfTheForward) {
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const Shape4 xs{2, 3, 9, 7}, ws{4, 3, 3, 2};
    const Conv2d conv{1, 0, 2, 1, 1, 2};
    const Shape4 ys = conv.output(xs, ws);
    const std::vector<float> x = random_values(random, xs.count()), w = random_values(random, ws.count());
    const std::vector<float> dy = random_values(random, ys.count());
    // <conv(x, w), dy> == <x, backward_data(w, dy)> == <w, backward_filter(x, dy)>
    const double forward = dot(dy, reference::convolution_forward(conv, xs, x, ws, w));
    EXPECT_NEAR(dot(x, reference::convolution_backward_data(conv, xs, ws, w, dy)), forward,
                1e-9 * (1 + std::fabs(forward)));
    EXPECT_NEAR(dot(w, reference::convolution_backward_filter(conv, xs, x, ws, dy)), forward,
                1e-9 * (1 + std::fabs(forward)));
}

TEST(SelftestReference, SoftmaxRowsSumToOneAndLogSoftmaxIsItsLog) {
    std::mt19937 random(3);
    const Shape4 xs{2, 5, 2, 3};
    const std::vector<float> x = random_values(random, xs.count());
    const std::vector<double> channel = reference::softmax(xs, x, true, false);
    const std::vector<double> log_channel = reference::softmax(xs, x, true, true);
    for (int n = 0; n < xs.n; ++n)
        for (int h = 0; h < xs.h; ++h)
            for (int w = 0; w < xs.w; ++w) {
                double sum = 0;
                for (int c = 0; c < xs.c; ++c) {
                    sum += channel[xs.at(n, c, h, w)];
                    EXPECT_NEAR(std::log(channel[xs.at(n, c, h, w)]), log_channel[xs.at(n, c, h, w)], 1e-12);
                }
                EXPECT_NEAR(sum, 1.0, 1e-12);
            }
    const std::vector<double> instance = reference::softmax(xs, x, false, false);
    double total = 0;
    for (int64_t i = 0; i < xs.count() / xs.n; ++i) total += instance[i];
    EXPECT_NEAR(total, 1.0, 1e-12);
}

TEST(SelftestReference, RelativeErrorSeesNaNsAndScale) {
    EXPECT_EQ(reference::relative_error({1, 2}, {1, 2}), 0);
    EXPECT_TRUE(std::isinf(reference::relative_error({1, NAN}, {1, 2})));
    EXPECT_NEAR(reference::relative_error({3, 4.5f}, {3, 4}), 0.1, 1e-12);
}

TEST(SelftestReference, AgreesWithLibreDnnsReferences) {
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    const Shape4 xs{2, 3, 11, 10}, ws{5, 3, 3, 3};
    const Conv2d conv{1, 2, 2, 1, 1, 1};
    const Shape4 ys = conv.output(xs, ws);
    std::vector<float> x = random_values(random, xs.count()), w = random_values(random, ws.count());
    std::vector<float> dy = random_values(random, ys.count());

    librednn::reference::ConvolutionGeometry geometry;
    geometry.padding = {conv.pad_h, conv.pad_w};
    geometry.stride = {conv.stride_h, conv.stride_w};
    geometry.dilation = {conv.dilation_h, conv.dilation_w};
    std::vector<float> y(ys.count()), dx(xs.count()), dw(ws.count());
    ASSERT_EQ(librednn::reference::convolution_forward(geometry, 1, view(x, xs), view(w, ws), 0, view(y, ys)),
              CUDNN_STATUS_SUCCESS);
    EXPECT_LT(reference::relative_error(y, reference::convolution_forward(conv, xs, x, ws, w)), 1e-6);
    ASSERT_EQ(librednn::reference::convolution_backward_data(geometry, 1, view(w, ws), view(dy, ys), 0, view(dx, xs)),
              CUDNN_STATUS_SUCCESS);
    EXPECT_LT(reference::relative_error(dx, reference::convolution_backward_data(conv, xs, ws, w, dy)), 1e-6);
    ASSERT_EQ(librednn::reference::convolution_backward_filter(geometry, 1, view(x, xs), view(dy, ys), 0, view(dw, ws)),
              CUDNN_STATUS_SUCCESS);
    EXPECT_LT(reference::relative_error(dw, reference::convolution_backward_filter(conv, xs, x, ws, dy)), 1e-6);

    const Shape4 ps{1, 3, 1, 1};
    std::vector<float> scale = random_values(random, 3), bias = random_values(random, 3),
                       mean = random_values(random, 3);
    std::vector<float> variance = {0.5f, 1.0f, 2.0f}, bn(xs.count());
    ASSERT_EQ(librednn::reference::batch_norm_forward_inference(CUDNN_BATCHNORM_SPATIAL, 1, 0, view(x, xs),
                                                                view(bn, xs), view(scale, ps), view(bias, ps),
                                                                view(mean, ps), view(variance, ps), 1e-5),
              CUDNN_STATUS_SUCCESS);
    EXPECT_LT(reference::relative_error(bn, reference::batch_norm_inference(xs, x, scale, bias, mean, variance, 1e-5)),
              1e-6);

    const Pool2d pool{3, 3, 1, 1, 2, 2};
    const Shape4 zs = pool.output(xs);
    librednn::reference::PoolingGeometry pooling;
    pooling.window = {3, 3};
    pooling.padding = {1, 1};
    pooling.stride = {2, 2};
    std::vector<float> z(zs.count());
    ASSERT_EQ(librednn::reference::pooling_forward(pooling, 1, view(x, xs), 0, view(z, zs)), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(reference::relative_error(z, reference::max_pooling(pool, xs, x)), 0);
}

// The self-test's LSTM and GRU against LibreDNN's RNN reference on the same weights, lengths and state.
TEST(SelftestReference, LstmAndGruAgreeWithLibreDnnsRnnReference) {
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    for (const cudnnRNNMode_t cell : {CUDNN_LSTM, CUDNN_GRU}) {
        SCOPED_TRACE(cell == CUDNN_LSTM ? "LSTM" : "GRU");
        const int gates = cell == CUDNN_LSTM ? 4 : 3;
        reference::RnnLayer net;
        net.input = 3, net.hidden = 5, net.steps = 4, net.batch = 3;
        net.lengths = {4, 1, 3};
        librednn::reference::RnnConfig config;
        config.cell = cell;
        config.input_size = net.input, config.hidden_size = config.proj_size = net.hidden;
        librednn::reference::RnnWeights weights;
        weights.matrices.resize(1), weights.biases.resize(1);
        for (int id = 0; id < 2 * gates; ++id) {
            net.matrices.push_back(random_values(random, int64_t{net.hidden} * (id < gates ? net.input : net.hidden)));
            net.biases.push_back(random_values(random, net.hidden));
            weights.matrices[0].emplace_back(net.matrices.back().begin(), net.matrices.back().end());
            weights.biases[0].emplace_back(net.biases.back().begin(), net.biases.back().end());
        }
        if (cell == CUDNN_LSTM) weights.matrices[0].emplace_back(), weights.biases[0].emplace_back();  // id 8: none
        const std::vector<float> x = random_values(random, int64_t{net.steps} * net.batch * net.input);
        const std::vector<float> hx = random_values(random, int64_t{net.batch} * net.hidden);
        const std::vector<float> cx = random_values(random, int64_t{net.batch} * net.hidden);
        const auto wide = [](const std::vector<float> &v) { return std::vector<double>(v.begin(), v.end()); };
        std::vector<double> y, hy, cy;
        ASSERT_EQ(
            librednn::reference::rnn_forward(config, weights, net.steps, net.lengths, wide(x), wide(hx),
                                             cell == CUDNN_LSTM ? wide(cx) : std::vector<double>(), 0.0, &y, &hy, &cy),
            CUDNN_STATUS_SUCCESS);
        const reference::RnnOutputs mine =
            cell == CUDNN_LSTM ? reference::lstm_forward(net, x, hx, cx) : reference::gru_forward(net, x, hx);
        const auto narrow = [](const std::vector<double> &v) { return std::vector<float>(v.begin(), v.end()); };
        EXPECT_LT(reference::relative_error(narrow(y), mine.y), 1e-6);
        EXPECT_LT(reference::relative_error(narrow(hy), mine.hy), 1e-6);
        if (cell == CUDNN_LSTM) {
            EXPECT_LT(reference::relative_error(narrow(cy), mine.cy), 1e-6);
        }
    }
}

// The self-test's LSTM back-propagation against central differences of its forward, of the loss
// sum(y dy) + sum(hy dhy) + sum(cy dcy), for every input, state, weight and bias (steps of 2^-10, exact in float
// for these values: the differences err by O(2^-20)).
TEST(SelftestReference, LstmBackwardMatchesCentralDifferences) {
    const unsigned seed = std::random_device{}();
    SCOPED_TRACE("seed " + std::to_string(seed));
    std::mt19937 random(seed);
    reference::RnnLayer net;
    net.input = 3, net.hidden = 2, net.steps = 3, net.batch = 2;
    net.lengths = {3, 2};
    for (int id = 0; id < 8; ++id) {
        net.matrices.push_back(random_values(random, int64_t{net.hidden} * (id < 4 ? net.input : net.hidden)));
        net.biases.push_back(random_values(random, net.hidden));
    }
    std::vector<float> x = random_values(random, int64_t{net.steps} * net.batch * net.input);
    std::vector<float> hx = random_values(random, int64_t{net.batch} * net.hidden);
    std::vector<float> cx = random_values(random, int64_t{net.batch} * net.hidden);
    const std::vector<float> dy = random_values(random, int64_t{net.steps} * net.batch * net.hidden);
    const std::vector<float> dhy = random_values(random, int64_t{net.batch} * net.hidden);
    const std::vector<float> dcy = random_values(random, int64_t{net.batch} * net.hidden);
    const auto loss = [&]() {
        const reference::RnnOutputs out = reference::lstm_forward(net, x, hx, cx);
        return dot(dy, out.y) + dot(dhy, out.hy) + dot(dcy, out.cy);
    };
    const reference::LstmGradients got = reference::lstm_backward(net, x, hx, cx, dy, dhy, dcy);
    const float step = 0x1p-10f;
    const auto difference = [&](float *value) {
        const float kept = *value;
        *value = kept + step;
        const double up = loss();
        *value = kept - step;
        const double down = loss();
        *value = kept;
        return (up - down) / (2.0 * step);
    };
    const auto expect_gradient = [&](std::vector<float> &values, const std::vector<double> &gradient, const char *what,
                                     bool only_valid_x) {
        for (size_t i = 0; i < values.size(); ++i) {
            if (only_valid_x) {
                const int t = static_cast<int>(i / (net.batch * net.input)),
                          n = static_cast<int>(i / net.input % net.batch);
                if (t >= net.lengths[n]) {
                    EXPECT_EQ(gradient[i], 0.0) << what << "[" << i << "] past the sequence";
                    continue;
                }
            }
            EXPECT_NEAR(gradient[i], difference(&values[i]), 1e-4) << what << "[" << i << "]";
        }
    };
    expect_gradient(x, got.dx, "dx", true);
    expect_gradient(hx, got.dhx, "dhx", false);
    expect_gradient(cx, got.dcx, "dcx", false);
    for (int id = 0; id < 8; ++id) {
        expect_gradient(net.matrices[id], got.matrices[id], "matrix", false);
        expect_gradient(net.biases[id], got.biases[id], "bias", false);
    }
}

}  // namespace
}  // namespace librednn::doctor
