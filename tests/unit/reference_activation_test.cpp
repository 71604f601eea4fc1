// The reference activations on hand-computed values.
#include "reference/activation.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using namespace librednn;

double value(cudnnActivationMode_t mode, double x, double coef = 0.0, double swish_beta = 1.0,
             cudnnNanPropagation_t nan = CUDNN_NOT_PROPAGATE_NAN) {
    return reference::activation_value(mode, nan, coef, swish_beta, x);
}

TEST(ReferenceActivation, ForwardValuesMatchTheirFormulas) {
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_SIGMOID, 0.0), 0.5);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_SIGMOID, std::log(3.0)), 0.75);  // 1 / (1 + 1/3)
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_RELU, -2.0), 0.0);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_RELU, 1.5), 1.5);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_TANH, std::log(2.0)), 0.6);  // (4 - 1) / (4 + 1)
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_CLIPPED_RELU, 7.0, 6.0), 6.0);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_CLIPPED_RELU, 2.5, 6.0), 2.5);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_CLIPPED_RELU, -1.0, 6.0), 0.0);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_ELU, 2.0, 0.5), 2.0);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_ELU, -std::log(2.0), 0.5), -0.25);  // 0.5 * (1/2 - 1)
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_IDENTITY, -3.25), -3.25);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_SWISH, std::log(3.0), 0.0, 1.0), std::log(3.0) * 0.75);
    EXPECT_DOUBLE_EQ(value(CUDNN_ACTIVATION_SWISH, 2.0, 0.0, 0.0), 1.0);  // beta 0: x / 2
}

TEST(ReferenceActivation, NanOptionAppliesToReluAndClippedRelu) {
    const double nan = std::nan("");
    EXPECT_EQ(value(CUDNN_ACTIVATION_RELU, nan), 0.0);
    EXPECT_TRUE(std::isnan(value(CUDNN_ACTIVATION_RELU, nan, 0.0, 1.0, CUDNN_PROPAGATE_NAN)));
    EXPECT_EQ(value(CUDNN_ACTIVATION_CLIPPED_RELU, nan, 6.0), 0.0);
    EXPECT_TRUE(std::isnan(value(CUDNN_ACTIVATION_CLIPPED_RELU, nan, 6.0, 1.0, CUDNN_PROPAGATE_NAN)));
    EXPECT_TRUE(std::isnan(value(CUDNN_ACTIVATION_SIGMOID, nan)));
    EXPECT_TRUE(std::isnan(value(CUDNN_ACTIVATION_TANH, nan)));
}

TEST(ReferenceActivation, GradientsUseYForSigmoidAndTanhAndXOtherwise) {
    const auto grad = [](cudnnActivationMode_t mode, double x, double y, double dy, double coef = 0.0) {
        return reference::activation_gradient(mode, CUDNN_NOT_PROPAGATE_NAN, coef, 1.0, x, y, dy);
    };
    // x is deliberately inconsistent with y: only the documented input may matter.
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_SIGMOID, 99.0, 0.25, 2.0), 2.0 * 0.25 * 0.75);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_TANH, 99.0, 0.5, 2.0), 2.0 * 0.75);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_RELU, 1.0, -99.0, 3.0), 3.0);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_RELU, -1.0, 99.0, 3.0), 0.0);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_CLIPPED_RELU, 5.0, 0.0, 3.0, 6.0), 3.0);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_CLIPPED_RELU, 6.5, 0.0, 3.0, 6.0), 0.0);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_ELU, -std::log(2.0), 0.0, 4.0, 0.5), 4.0 * 0.5 * 0.5);
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_IDENTITY, 7.0, 7.0, -1.5), -1.5);
    // swish at 0: s = 1/2, derivative 1/2.
    EXPECT_DOUBLE_EQ(grad(CUDNN_ACTIVATION_SWISH, 0.0, 0.0, 2.0), 1.0);
}

TEST(ReferenceActivation, BlendsWithAlphaAndBetaAndNeverReadsYWhenBetaIsZero) {
    const int64_t dims[] = {1, 1, 1, 3};
    ActivationProblem p;
    p.mode = CUDNN_ACTIVATION_RELU;
    p.x = p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    p.alpha = 2.0;
    std::vector<float> x = {-1.0f, 0.5f, 3.0f}, y = {NAN, NAN, NAN};
    ActivationBuffers b;
    b.x = x.data();
    b.result = y.data();
    reference::activation(p, b);
    EXPECT_EQ(y, (std::vector<float>{0.0f, 1.0f, 6.0f}));
    p.beta = -0.5;
    reference::activation(p, b);
    EXPECT_EQ(y, (std::vector<float>{0.0f, 0.5f, 3.0f}));  // 2 * f(x) - y / 2
}

}  // namespace
