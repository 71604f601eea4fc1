// cudnnCreate/Set/Get/DestroyActivationDescriptor and the swish beta, through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cmath>
#include <random>
#include <string>

namespace {

struct ActivationDesc {
    cudnnActivationDescriptor_t desc = nullptr;
    ActivationDesc() { EXPECT_EQ(cudnnCreateActivationDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~ActivationDesc() { EXPECT_EQ(cudnnDestroyActivationDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

}  // namespace

TEST(ActivationDescriptor, SetThenGetRoundTripsRandomConfigurations) {
    const unsigned seed = 20240613;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> coefs(-10.0, 10.0);
    ActivationDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const auto mode = static_cast<cudnnActivationMode_t>(rng() % 7);
        const auto nan = static_cast<cudnnNanPropagation_t>(rng() % 2);
        const double coef = coefs(rng);
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": mode " +
                     std::to_string(mode) + " nan " + std::to_string(nan) + " coef " + std::to_string(coef));
        ASSERT_EQ(cudnnSetActivationDescriptor(d.desc, mode, nan, coef), CUDNN_STATUS_SUCCESS);
        cudnnActivationMode_t mode_out;
        cudnnNanPropagation_t nan_out;
        double coef_out = 0;
        ASSERT_EQ(cudnnGetActivationDescriptor(d.desc, &mode_out, &nan_out, &coef_out), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(mode_out, mode);
        EXPECT_EQ(nan_out, nan);
        EXPECT_EQ(coef_out, coef);  // stored as given, bit for bit
    }
}

TEST(ActivationDescriptor, SwishBetaStartsAtOneAndRoundTrips) {
    ActivationDesc d;
    double beta = 0;
    ASSERT_EQ(cudnnGetActivationDescriptorSwishBeta(d.desc, &beta), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(beta, 1.0);
    ASSERT_EQ(cudnnSetActivationDescriptorSwishBeta(d.desc, 1.702), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetActivationDescriptorSwishBeta(d.desc, &beta), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(beta, 1.702);
    // Setting mode and coefficient leaves the swish beta alone.
    ASSERT_EQ(cudnnSetActivationDescriptor(d.desc, CUDNN_ACTIVATION_SWISH, CUDNN_NOT_PROPAGATE_NAN, 0.0),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetActivationDescriptorSwishBeta(d.desc, &beta), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(beta, 1.702);
}

TEST(ActivationDescriptor, GetBeforeSetIsRejected) {
    ActivationDesc d;
    cudnnActivationMode_t mode;
    cudnnNanPropagation_t nan;
    double coef;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptor(d.desc, &mode, &nan, &coef),
                    "cudnnGetActivationDescriptor", "activationDesc has not been set");
}

TEST(ActivationDescriptor, RejectsValuesOutsideTheirEnums) {
    ActivationDesc d;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetActivationDescriptor(d.desc, static_cast<cudnnActivationMode_t>(7), CUDNN_NOT_PROPAGATE_NAN, 0.0),
        "cudnnSetActivationDescriptor", "mode is 7", "cudnnActivationMode_t");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetActivationDescriptor(d.desc, static_cast<cudnnActivationMode_t>(-1), CUDNN_NOT_PROPAGATE_NAN, 0.0),
        "mode is -1");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetActivationDescriptor(d.desc, CUDNN_ACTIVATION_RELU, static_cast<cudnnNanPropagation_t>(5), 0.0),
        "reluNanOpt is 5", "cudnnNanPropagation_t");
}

TEST(ActivationDescriptor, FailedSetKeepsThePreviousValues) {
    ActivationDesc d;
    ASSERT_EQ(cudnnSetActivationDescriptor(d.desc, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_PROPAGATE_NAN, 6.0),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(
        cudnnSetActivationDescriptor(d.desc, static_cast<cudnnActivationMode_t>(42), CUDNN_NOT_PROPAGATE_NAN, 1.0),
        CUDNN_STATUS_BAD_PARAM);
    cudnnActivationMode_t mode;
    cudnnNanPropagation_t nan;
    double coef;
    ASSERT_EQ(cudnnGetActivationDescriptor(d.desc, &mode, &nan, &coef), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(mode, CUDNN_ACTIVATION_CLIPPED_RELU);
    EXPECT_EQ(nan, CUDNN_PROPAGATE_NAN);
    EXPECT_EQ(coef, 6.0);
}

TEST(ActivationDescriptor, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateActivationDescriptor(nullptr), "activationDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetActivationDescriptor(nullptr, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
                    "activationDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetActivationDescriptorSwishBeta(nullptr, 1.0),
                    "cudnnSetActivationDescriptorSwishBeta", "activationDesc is NULL");
    ActivationDesc d;
    ASSERT_EQ(cudnnSetActivationDescriptor(d.desc, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
              CUDNN_STATUS_SUCCESS);
    cudnnActivationMode_t mode;
    cudnnNanPropagation_t nan;
    double coef;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptor(nullptr, &mode, &nan, &coef),
                    "activationDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptor(d.desc, nullptr, &nan, &coef), "mode is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptor(d.desc, &mode, nullptr, &coef),
                    "reluNanOpt is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptor(d.desc, &mode, &nan, nullptr), "coef is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptorSwishBeta(nullptr, &coef),
                    "activationDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetActivationDescriptorSwishBeta(d.desc, nullptr),
                    "swish_beta is NULL");
}

TEST(ActivationDescriptor, DestroyingNullIsANoOp) {
    EXPECT_EQ(cudnnDestroyActivationDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}
