// cudnnDeriveBNTensorDescriptor and cudnnDeriveNormTensorDescriptor through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>
#include <vector>

namespace {

struct Tensor {
    cudnnTensorDescriptor_t desc = nullptr;
    Tensor() { EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~Tensor() { cudnnDestroyTensorDescriptor(desc); }
    Tensor(const Tensor &) = delete;
    Tensor &operator=(const Tensor &) = delete;
};

std::string join(const int *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

// "type dims strides" of a tensor descriptor.
std::string shape_of(cudnnTensorDescriptor_t desc) {
    cudnnDataType_t type;
    int nb = 0, dims[8], strides[8];
    EXPECT_EQ(cudnnGetTensorNdDescriptor(desc, 8, &type, &nb, dims, strides), CUDNN_STATUS_SUCCESS);
    return std::to_string(type) + " " + join(dims, nb) + " " + join(strides, nb);
}

std::string expected(cudnnDataType_t type, const std::vector<int> &dims) {
    std::vector<int> strides(dims.size());
    int next = 1;
    for (int i = int(dims.size()) - 1; i >= 0; --i) strides[i] = next, next *= dims[i];
    return std::to_string(type) + " " + join(dims.data(), int(dims.size())) + " " +
           join(strides.data(), int(strides.size()));
}

constexpr unsigned kSeed = 8907;

}  // namespace

TEST(DeriveBN, SpatialModesGiveOnePerChannel) {
    Tensor x, bn;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 8, 16, 5, 7),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_SPATIAL), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_FLOAT, {1, 16, 1, 1}));
    ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_SPATIAL_PERSISTENT), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_FLOAT, {1, 16, 1, 1}));
    const int dims5[5] = {2, 3, 4, 5, 6};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 5, dims5),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_SPATIAL), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_DOUBLE, {1, 3, 1, 1, 1}));
}

TEST(DeriveBN, PerActivationKeepsTheSpatialDims) {
    Tensor x, bn;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 8, 16, 5, 7),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_PER_ACTIVATION), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_FLOAT, {1, 16, 5, 7}));
    const int dims5[5] = {2, 3, 4, 5, 6};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(x.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 5, dims5),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_PER_ACTIVATION), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_FLOAT, {1, 3, 4, 5, 6}));
}

TEST(DeriveBN, HalfAndBfloat16DataGetFloatParameters) {
    Tensor x, bn;
    for (cudnnDataType_t type : {CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16}) {
        ASSERT_EQ(cudnnSetTensor4dDescriptor(x.desc, CUDNN_TENSOR_NCHW, type, 2, 4, 3, 3), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_SPATIAL), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_FLOAT, {1, 4, 1, 1})) << "x type " << type;
    }
}

TEST(DeriveBN, RandomStridedInputsRoundTrip) {
    std::mt19937 rng(kSeed);
    for (int trial = 0; trial < 30; ++trial) {
        const int nb = 4 + int(rng() % 2);
        std::vector<int> dims(nb), strides(nb);
        for (int &d : dims) d = 1 + int(rng() % 9);
        int next = 1;
        for (int i = nb - 1; i >= 0; --i) strides[i] = next + int(rng() % 2), next = strides[i] * dims[i];
        const cudnnBatchNormMode_t mode = static_cast<cudnnBatchNormMode_t>(rng() % 3);
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " trial " + std::to_string(trial) + ": x " +
                     join(dims.data(), nb) + " strides " + join(strides.data(), nb) + " mode " + std::to_string(mode));
        Tensor x, bn;
        ASSERT_EQ(cudnnSetTensorNdDescriptor(x.desc, CUDNN_DATA_HALF, nb, dims.data(), strides.data()),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, mode), CUDNN_STATUS_SUCCESS);
        std::vector<int> want(nb, 1);
        want[1] = dims[1];
        if (mode == CUDNN_BATCHNORM_PER_ACTIVATION)
            for (int i = 2; i < nb; ++i) want[i] = dims[i];
        EXPECT_EQ(shape_of(bn.desc), expected(CUDNN_DATA_FLOAT, want));
    }
}

TEST(DeriveBN, RejectsBadModeRankAndArguments) {
    Tensor x, bn, unset;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 4, 3, 3),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, static_cast<cudnnBatchNormMode_t>(3)),
                    "cudnnDeriveBNTensorDescriptor", "mode is 3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDeriveBNTensorDescriptor(nullptr, x.desc, CUDNN_BATCHNORM_SPATIAL),
                    "derivedBnDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDeriveBNTensorDescriptor(bn.desc, nullptr, CUDNN_BATCHNORM_SPATIAL),
                    "xDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDeriveBNTensorDescriptor(bn.desc, unset.desc, CUDNN_BATCHNORM_SPATIAL),
                    "xDesc has not been set");
    const int dims3[3] = {2, 4, 3};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 3, dims3),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDeriveBNTensorDescriptor(bn.desc, x.desc, CUDNN_BATCHNORM_SPATIAL),
                    "xDesc has 3 dims", "only 4d and 5d");
}

TEST(DeriveNorm, PerChannelAndPerActivationFillBothDescriptors) {
    Tensor x, scale_bias, mean_var;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 4, 32, 6, 8),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDeriveNormTensorDescriptor(scale_bias.desc, mean_var.desc, x.desc, CUDNN_NORM_PER_CHANNEL, 1),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(scale_bias.desc), expected(CUDNN_DATA_FLOAT, {1, 32, 1, 1}));
    EXPECT_EQ(shape_of(mean_var.desc), expected(CUDNN_DATA_FLOAT, {1, 32, 1, 1}));
    ASSERT_EQ(cudnnDeriveNormTensorDescriptor(scale_bias.desc, mean_var.desc, x.desc, CUDNN_NORM_PER_ACTIVATION, 1),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(scale_bias.desc), expected(CUDNN_DATA_FLOAT, {1, 32, 6, 8}));
    EXPECT_EQ(shape_of(mean_var.desc), expected(CUDNN_DATA_FLOAT, {1, 32, 6, 8}));
    const int dims5[5] = {2, 3, 4, 5, 6};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 5, dims5),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDeriveNormTensorDescriptor(scale_bias.desc, mean_var.desc, x.desc, CUDNN_NORM_PER_CHANNEL, 1),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(mean_var.desc), expected(CUDNN_DATA_DOUBLE, {1, 3, 1, 1, 1}));
}

TEST(DeriveNorm, RejectsBadModeGroupCountAndArguments) {
    Tensor x, a, b, unset;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 4, 3, 3),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveNormTensorDescriptor(a.desc, b.desc, x.desc, static_cast<cudnnNormMode_t>(2), 1),
                    "cudnnDeriveNormTensorDescriptor", "mode is 2");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveNormTensorDescriptor(a.desc, b.desc, x.desc, CUDNN_NORM_PER_CHANNEL, 0), "groupCnt is 0",
                    "must be positive");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnDeriveNormTensorDescriptor(a.desc, b.desc, x.desc, CUDNN_NORM_PER_CHANNEL, 2), "groupCnt is 2",
                    "only 1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveNormTensorDescriptor(nullptr, b.desc, x.desc, CUDNN_NORM_PER_CHANNEL, 1),
                    "derivedNormScaleBiasDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveNormTensorDescriptor(a.desc, nullptr, x.desc, CUDNN_NORM_PER_CHANNEL, 1),
                    "derivedNormMeanVarDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveNormTensorDescriptor(a.desc, b.desc, unset.desc, CUDNN_NORM_PER_CHANNEL, 1),
                    "xDesc has not been set");
    const int dims6[6] = {1, 2, 3, 4, 5, 6};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(x.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 6, dims6),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDeriveNormTensorDescriptor(a.desc, b.desc, x.desc, CUDNN_NORM_PER_ACTIVATION, 1),
                    "xDesc has 6 dims");
}
