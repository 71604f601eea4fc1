// cudnnCreate/Set/Get/DestroyLRNDescriptor through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cmath>
#include <limits>
#include <random>
#include <string>

namespace {

struct LRNDesc {
    cudnnLRNDescriptor_t desc = nullptr;
    LRNDesc() { EXPECT_EQ(cudnnCreateLRNDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~LRNDesc() { EXPECT_EQ(cudnnDestroyLRNDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

struct LRNValues {
    unsigned n = 0;
    double alpha = 0, beta = 0, k = 0;
};

LRNValues get(cudnnLRNDescriptor_t desc) {
    LRNValues v;
    EXPECT_EQ(cudnnGetLRNDescriptor(desc, &v.n, &v.alpha, &v.beta, &v.k), CUDNN_STATUS_SUCCESS);
    return v;
}

}  // namespace

TEST(LRNDescriptor, NewDescriptorHoldsTheDocumentedDefaults) {
    LRNDesc d;
    const LRNValues v = get(d.desc);
    EXPECT_EQ(v.n, 5u);
    EXPECT_EQ(v.alpha, 1e-4);
    EXPECT_EQ(v.beta, 0.75);
    EXPECT_EQ(v.k, 2.0);
}

TEST(LRNDescriptor, SetThenGetRoundTripsRandomConfigurations) {
    const unsigned seed = 20240614;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> alphas(-1.0, 1.0), betas(CUDNN_LRN_MIN_BETA, 4.0), ks(CUDNN_LRN_MIN_K, 10.0);
    LRNDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const unsigned n = CUDNN_LRN_MIN_N + rng() % (CUDNN_LRN_MAX_N - CUDNN_LRN_MIN_N + 1);
        const double alpha = alphas(rng), beta = betas(rng), k = ks(rng);
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": n " + std::to_string(n) +
                     " alpha " + std::to_string(alpha) + " beta " + std::to_string(beta) + " k " + std::to_string(k));
        ASSERT_EQ(cudnnSetLRNDescriptor(d.desc, n, alpha, beta, k), CUDNN_STATUS_SUCCESS);
        const LRNValues v = get(d.desc);
        EXPECT_EQ(v.n, n);
        EXPECT_EQ(v.alpha, alpha);
        EXPECT_EQ(v.beta, beta);
        EXPECT_EQ(v.k, k);
    }
}

TEST(LRNDescriptor, AcceptsTheLimitsThemselves) {
    LRNDesc d;
    EXPECT_EQ(cudnnSetLRNDescriptor(d.desc, CUDNN_LRN_MIN_N, 1e-4, CUDNN_LRN_MIN_BETA, CUDNN_LRN_MIN_K),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetLRNDescriptor(d.desc, CUDNN_LRN_MAX_N, 1e-4, 0.75, 2.0), CUDNN_STATUS_SUCCESS);
}

TEST(LRNDescriptor, RejectsWindowOutsideMinAndMaxN) {
    LRNDesc d;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetLRNDescriptor(d.desc, 0, 1e-4, 0.75, 2.0), "cudnnSetLRNDescriptor",
                    "lrnN is 0", "CUDNN_LRN_MIN_N");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetLRNDescriptor(d.desc, 17, 1e-4, 0.75, 2.0), "lrnN is 17",
                    "CUDNN_LRN_MAX_N");
}

TEST(LRNDescriptor, RejectsKBelowMinK) {
    LRNDesc d;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetLRNDescriptor(d.desc, 5, 1e-4, 0.75, 1e-6), "lrnK is 1e-06",
                    "CUDNN_LRN_MIN_K");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetLRNDescriptor(d.desc, 5, 1e-4, 0.75, std::numeric_limits<double>::quiet_NaN()),
                    "lrnK is nan");
}

TEST(LRNDescriptor, RejectsBetaBelowMinBeta) {
    LRNDesc d;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetLRNDescriptor(d.desc, 5, 1e-4, 0.001, 2.0), "lrnBeta is 0.001",
                    "CUDNN_LRN_MIN_BETA");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetLRNDescriptor(d.desc, 5, 1e-4, -1.0, 2.0), "lrnBeta is -1");
}

TEST(LRNDescriptor, FailedSetKeepsThePreviousValues) {
    LRNDesc d;
    ASSERT_EQ(cudnnSetLRNDescriptor(d.desc, 7, 2e-4, 0.5, 1.0), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetLRNDescriptor(d.desc, 3, 1e-4, 0.75, 0.0), CUDNN_STATUS_BAD_PARAM);
    const LRNValues v = get(d.desc);
    EXPECT_EQ(v.n, 7u);
    EXPECT_EQ(v.alpha, 2e-4);
    EXPECT_EQ(v.beta, 0.5);
    EXPECT_EQ(v.k, 1.0);
}

TEST(LRNDescriptor, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateLRNDescriptor(nullptr), "normDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetLRNDescriptor(nullptr, 5, 1e-4, 0.75, 2.0), "normDesc is NULL");
    LRNDesc d;
    LRNValues v;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetLRNDescriptor(nullptr, &v.n, &v.alpha, &v.beta, &v.k),
                    "normDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetLRNDescriptor(d.desc, nullptr, &v.alpha, &v.beta, &v.k),
                    "lrnN is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetLRNDescriptor(d.desc, &v.n, nullptr, &v.beta, &v.k),
                    "lrnAlpha is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetLRNDescriptor(d.desc, &v.n, &v.alpha, nullptr, &v.k),
                    "lrnBeta is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetLRNDescriptor(d.desc, &v.n, &v.alpha, &v.beta, nullptr),
                    "lrnK is NULL");
}

TEST(LRNDescriptor, DestroyingNullIsANoOp) { EXPECT_EQ(cudnnDestroyLRNDescriptor(nullptr), CUDNN_STATUS_SUCCESS); }
