// The reference softmax on hand-computed values.
#include "reference/softmax.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using namespace librednn;

SoftmaxProblem problem(cudnnSoftmaxAlgorithm_t algorithm, cudnnSoftmaxMode_t mode, Direction direction) {
    // 1 image, 2 channels, 1x2 positions, double.
    const int64_t dims[] = {1, 2, 1, 2};
    SoftmaxProblem p;
    p.algorithm = algorithm;
    p.mode = mode;
    p.direction = direction;
    p.x = p.y = p.dy = p.dx = packed_geometry(CUDNN_DATA_DOUBLE, 4, dims, PackedLayout::nchw);
    return p;
}

TEST(ReferenceSoftmax, ChannelModeNormalisesEachPositionOverChannels) {
    // NCHW: x[c][w] = {{0, ln 3}, {ln 3, 0}}: position 0 has (1, 3), position 1 (3, 1) after exp.
    std::vector<double> x = {0.0, std::log(3.0), std::log(3.0), 0.0}, y(4, NAN);
    SoftmaxBuffers b;
    b.x = x.data();
    b.result = y.data();
    for (auto algorithm : {CUDNN_SOFTMAX_FAST, CUDNN_SOFTMAX_ACCURATE}) {
        reference::softmax(problem(algorithm, CUDNN_SOFTMAX_MODE_CHANNEL, Direction::forward), b);
        EXPECT_NEAR(y[0], 0.25, 1e-15);
        EXPECT_NEAR(y[1], 0.75, 1e-15);
        EXPECT_NEAR(y[2], 0.75, 1e-15);
        EXPECT_NEAR(y[3], 0.25, 1e-15);
    }
    reference::softmax(problem(CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_CHANNEL, Direction::forward), b);
    EXPECT_NEAR(y[0], std::log(0.25), 1e-15);
    EXPECT_NEAR(y[1], std::log(0.75), 1e-15);
}

TEST(ReferenceSoftmax, InstanceModeNormalisesOverEverythingButN) {
    std::vector<double> x = {0.0, 0.0, std::log(3.0), std::log(3.0)}, y(4, NAN);
    SoftmaxBuffers b;
    b.x = x.data();
    b.result = y.data();
    reference::softmax(problem(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, Direction::forward), b);
    EXPECT_NEAR(y[0], 1.0 / 8.0, 1e-15);
    EXPECT_NEAR(y[2], 3.0 / 8.0, 1e-15);
}

TEST(ReferenceSoftmax, AccurateSurvivesLargeInputs) {
    std::vector<double> x = {1000.0, 1000.0, 1000.0, 1000.0}, y(4, NAN);
    SoftmaxBuffers b;
    b.x = x.data();
    b.result = y.data();
    reference::softmax(problem(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_INSTANCE, Direction::forward), b);
    for (double v : y) EXPECT_DOUBLE_EQ(v, 0.25);
}

TEST(ReferenceSoftmax, BackwardFormulas) {
    // Channel mode, position 0: y = (0.25, 0.75), dy = (1, 3): sum dy*y = 2.5, dx = y * (dy - 2.5).
    std::vector<double> y = {0.25, 0.5, 0.75, 0.5}, dy = {1.0, 0.0, 3.0, 0.0}, dx(4, NAN);
    SoftmaxBuffers b;
    b.y = y.data();
    b.dy = dy.data();
    b.result = dx.data();
    reference::softmax(problem(CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, Direction::backward), b);
    EXPECT_DOUBLE_EQ(dx[0], 0.25 * (1.0 - 2.5));
    EXPECT_DOUBLE_EQ(dx[2], 0.75 * (3.0 - 2.5));
    EXPECT_DOUBLE_EQ(dx[1], 0.0);
    // LOG: dx = dy - exp(y) * sum(dy); with y = log(p).
    std::vector<double> log_y = {std::log(0.25), 0.0, std::log(0.75), 0.0};
    b.y = log_y.data();
    reference::softmax(problem(CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_CHANNEL, Direction::backward), b);
    EXPECT_NEAR(dx[0], 1.0 - 0.25 * 4.0, 1e-15);
    EXPECT_NEAR(dx[2], 3.0 - 0.75 * 4.0, 1e-15);
}

}  // namespace
