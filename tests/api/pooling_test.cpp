// The pooling descriptor (2-D and N-D setters and getters) and the pooling output shape, through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>
#include <vector>

namespace {

struct PoolingDesc {
    cudnnPoolingDescriptor_t desc = nullptr;
    PoolingDesc() { EXPECT_EQ(cudnnCreatePoolingDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~PoolingDesc() { EXPECT_EQ(cudnnDestroyPoolingDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

struct TensorDesc {
    cudnnTensorDescriptor_t desc = nullptr;
    TensorDesc() { EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    explicit TensorDesc(const std::vector<int> &dims) : TensorDesc() {
        EXPECT_EQ(cudnnSetTensorNdDescriptorEx(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, static_cast<int>(dims.size()),
                                               dims.data()),
                  CUDNN_STATUS_SUCCESS);
    }
    ~TensorDesc() { EXPECT_EQ(cudnnDestroyTensorDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

std::string join(const std::vector<int> &values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

// The formula cuDNN documents, written out independently of the library.
int expected_output(int in, int window, int padding, int stride) { return 1 + (in + 2 * padding - window) / stride; }

}  // namespace

TEST(PoolingDescriptor, Set2dThenGet2dRoundTripsRandomConfigurations) {
    const unsigned seed = 20240615;
    std::mt19937 rng(seed);
    PoolingDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const auto mode = static_cast<cudnnPoolingMode_t>(rng() % 4);
        const auto nan = static_cast<cudnnNanPropagation_t>(rng() % 2);
        const int wh = 1 + rng() % 8, ww = 1 + rng() % 8, ph = rng() % 4, pw = rng() % 4, sh = 1 + rng() % 4,
                  sw = 1 + rng() % 4;
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": mode " +
                     std::to_string(mode) + " nan " + std::to_string(nan) + " window " + std::to_string(wh) + "x" +
                     std::to_string(ww) + " padding " + std::to_string(ph) + "x" + std::to_string(pw) + " stride " +
                     std::to_string(sh) + "x" + std::to_string(sw));
        ASSERT_EQ(cudnnSetPooling2dDescriptor(d.desc, mode, nan, wh, ww, ph, pw, sh, sw), CUDNN_STATUS_SUCCESS);
        cudnnPoolingMode_t mode_out;
        cudnnNanPropagation_t nan_out;
        int out[6] = {};
        ASSERT_EQ(cudnnGetPooling2dDescriptor(d.desc, &mode_out, &nan_out, &out[0], &out[1], &out[2], &out[3], &out[4],
                                              &out[5]),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(mode_out, mode);
        EXPECT_EQ(nan_out, nan);
        EXPECT_EQ(out[0], wh);
        EXPECT_EQ(out[1], ww);
        EXPECT_EQ(out[2], ph);
        EXPECT_EQ(out[3], pw);
        EXPECT_EQ(out[4], sh);
        EXPECT_EQ(out[5], sw);
    }
}

TEST(PoolingDescriptor, SetNdThenGetNdRoundTripsRandomConfigurations) {
    const unsigned seed = 20240616;
    std::mt19937 rng(seed);
    PoolingDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const int nb = 1 + rng() % (CUDNN_DIM_MAX - 2);
        const auto mode = static_cast<cudnnPoolingMode_t>(rng() % 4);
        const auto nan = static_cast<cudnnNanPropagation_t>(rng() % 2);
        std::vector<int> window(nb), padding(nb), stride(nb);
        for (int i = 0; i < nb; ++i) {
            window[i] = 1 + rng() % 6;
            padding[i] = rng() % 3;
            stride[i] = 1 + rng() % 3;
        }
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": window " + join(window) +
                     " padding " + join(padding) + " stride " + join(stride));
        ASSERT_EQ(cudnnSetPoolingNdDescriptor(d.desc, mode, nan, nb, window.data(), padding.data(), stride.data()),
                  CUDNN_STATUS_SUCCESS);
        cudnnPoolingMode_t mode_out;
        cudnnNanPropagation_t nan_out;
        int nb_out = -1;
        std::vector<int> w(CUDNN_DIM_MAX, -1), p(CUDNN_DIM_MAX, -1), s(CUDNN_DIM_MAX, -1);
        ASSERT_EQ(cudnnGetPoolingNdDescriptor(d.desc, CUDNN_DIM_MAX, &mode_out, &nan_out, &nb_out, w.data(), p.data(),
                                              s.data()),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(mode_out, mode);
        EXPECT_EQ(nan_out, nan);
        ASSERT_EQ(nb_out, nb);
        EXPECT_EQ(std::vector<int>(w.begin(), w.begin() + nb), window);
        EXPECT_EQ(std::vector<int>(p.begin(), p.begin() + nb), padding);
        EXPECT_EQ(std::vector<int>(s.begin(), s.begin() + nb), stride);
        EXPECT_EQ(w[nb], -1) << "wrote past the descriptor's dims";
    }
}

TEST(PoolingDescriptor, GetNdWritesAtMostTheRequestedDims) {
    PoolingDesc d;
    const int window[3] = {2, 3, 4}, padding[3] = {0, 1, 2}, stride[3] = {1, 2, 3};
    ASSERT_EQ(
        cudnnSetPoolingNdDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 3, window, padding, stride),
        CUDNN_STATUS_SUCCESS);
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int nb = 0, w[3] = {-1, -1, -1}, p[3] = {-1, -1, -1}, s[3] = {-1, -1, -1};
    ASSERT_EQ(cudnnGetPoolingNdDescriptor(d.desc, 2, &mode, &nan, &nb, w, p, s), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb, 3);  // the descriptor's own count, whatever was requested
    EXPECT_EQ(w[0], 2);
    EXPECT_EQ(w[1], 3);
    EXPECT_EQ(w[2], -1);
    EXPECT_EQ(p[2], -1);
    EXPECT_EQ(s[2], -1);
    ASSERT_EQ(cudnnGetPoolingNdDescriptor(d.desc, 0, &mode, &nan, &nb, nullptr, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb, 3);
}

TEST(PoolingDescriptor, Set2dIsReadableAsNdAndNdWithTwoDimsAs2d) {
    PoolingDesc d;
    ASSERT_EQ(cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, CUDNN_PROPAGATE_NAN, 3,
                                          5, 1, 2, 2, 3),
              CUDNN_STATUS_SUCCESS);
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int nb = 0, w[2], p[2], s[2];
    ASSERT_EQ(cudnnGetPoolingNdDescriptor(d.desc, 2, &mode, &nan, &nb, w, p, s), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb, 2);
    EXPECT_EQ(w[0], 3);
    EXPECT_EQ(w[1], 5);
    EXPECT_EQ(p[0], 1);
    EXPECT_EQ(p[1], 2);
    EXPECT_EQ(s[0], 2);
    EXPECT_EQ(s[1], 3);
    const int window[2] = {4, 4}, padding[2] = {0, 0}, stride[2] = {4, 4};
    ASSERT_EQ(
        cudnnSetPoolingNdDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, window, padding, stride),
        CUDNN_STATUS_SUCCESS);
    int out[6];
    ASSERT_EQ(cudnnGetPooling2dDescriptor(d.desc, &mode, &nan, &out[0], &out[1], &out[2], &out[3], &out[4], &out[5]),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(out[0], 4);
    EXPECT_EQ(out[4], 4);
}

TEST(PoolingDescriptor, Get2dRejectsAnNdDescriptor) {
    PoolingDesc d;
    const int window[3] = {2, 2, 2}, padding[3] = {0, 0, 0}, stride[3] = {2, 2, 2};
    ASSERT_EQ(
        cudnnSetPoolingNdDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 3, window, padding, stride),
        CUDNN_STATUS_SUCCESS);
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int v[6];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetPooling2dDescriptor(d.desc, &mode, &nan, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
                    "cudnnGetPooling2dDescriptor", "3-D pooling", "cudnnGetPoolingNdDescriptor");
}

TEST(PoolingDescriptor, GetBeforeSetIsRejected) {
    PoolingDesc d;
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int nb, v[6];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetPooling2dDescriptor(d.desc, &mode, &nan, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
                    "poolingDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdDescriptor(d.desc, 2, &mode, &nan, &nb, v, v + 2, v + 4),
                    "cudnnGetPoolingNdDescriptor", "poolingDesc has not been set");
}

TEST(PoolingDescriptor, Set2dRejectsNonPositiveWindowsAndStrides) {
    PoolingDesc d;
    const auto max = CUDNN_POOLING_MAX;
    const auto nan = CUDNN_NOT_PROPAGATE_NAN;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPooling2dDescriptor(d.desc, max, nan, 0, 2, 0, 0, 1, 1),
                    "cudnnSetPooling2dDescriptor", "windowHeight is 0", "positive");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPooling2dDescriptor(d.desc, max, nan, 2, -3, 0, 0, 1, 1),
                    "windowWidth is -3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPooling2dDescriptor(d.desc, max, nan, 2, 2, 0, 0, 0, 1),
                    "verticalStride is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPooling2dDescriptor(d.desc, max, nan, 2, 2, 0, 0, 1, -1),
                    "horizontalStride is -1");
}

TEST(PoolingDescriptor, Set2dRejectsNegativePadding) {
    PoolingDesc d;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, -1, 0, 1, 1),
                    "verticalPadding is -1", "negative");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, -2, 1, 1),
                    "horizontalPadding is -2");
}

TEST(PoolingDescriptor, RejectsValuesOutsideTheirEnums) {
    PoolingDesc d;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetPooling2dDescriptor(d.desc, static_cast<cudnnPoolingMode_t>(4), CUDNN_NOT_PROPAGATE_NAN, 2,
                                                2, 0, 0, 1, 1),
                    "mode is 4", "cudnnPoolingMode_t");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, static_cast<cudnnNanPropagation_t>(2), 2, 2, 0, 0, 1, 1),
        "maxpoolingNanOpt is 2", "cudnnNanPropagation_t");
    const int one[1] = {1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetPoolingNdDescriptor(d.desc, static_cast<cudnnPoolingMode_t>(-1), CUDNN_NOT_PROPAGATE_NAN, 1,
                                                one, one, one),
                    "cudnnSetPoolingNdDescriptor", "mode is -1");
}

TEST(PoolingDescriptor, SetNdRejectsBadDimCountsAndElements) {
    PoolingDesc d;
    const int ones[CUDNN_DIM_MAX] = {1, 1, 1, 1, 1, 1, 1, 1};
    const int zeros[CUDNN_DIM_MAX] = {};
    const auto max = CUDNN_POOLING_MAX;
    const auto nan = CUDNN_NOT_PROPAGATE_NAN;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 0, ones, zeros, ones),
                    "nbDims is 0", "at least 1");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetPoolingNdDescriptor(d.desc, max, nan, CUDNN_DIM_MAX - 1, ones, zeros, ones), "nbDims is 7",
                    "CUDNN_DIM_MAX-2");
    const int window[3] = {2, 0, 2}, padding[3] = {0, 0, -1}, stride[3] = {1, 1, 0};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 3, window, zeros, ones),
                    "windowDimA[1] is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 3, ones, padding, ones),
                    "paddingA[2] is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 3, ones, zeros, stride),
                    "strideA[2] is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 3, nullptr, zeros, ones),
                    "windowDimA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 3, ones, nullptr, ones),
                    "paddingA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetPoolingNdDescriptor(d.desc, max, nan, 3, ones, zeros, nullptr),
                    "strideA is NULL");
}

TEST(PoolingDescriptor, FailedSetKeepsThePreviousValues) {
    PoolingDesc d;
    ASSERT_EQ(cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 3, 3, 1, 1, 2, 2),
              CUDNN_STATUS_SUCCESS);
    const int window[3] = {2, 2, 2}, padding[3] = {0, 0, 0}, stride[3] = {2, 2, 0};
    EXPECT_EQ(
        cudnnSetPoolingNdDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 3, window, padding, stride),
        CUDNN_STATUS_BAD_PARAM);
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int v[6];
    ASSERT_EQ(cudnnGetPooling2dDescriptor(d.desc, &mode, &nan, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(v[0], 3);
    EXPECT_EQ(v[4], 2);
}

TEST(PoolingDescriptor, GetRejectsNullPointersAndNegativeRequests) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreatePoolingDescriptor(nullptr), "poolingDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetPooling2dDescriptor(nullptr, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 1, 1),
                    "poolingDesc is NULL");
    PoolingDesc d;
    ASSERT_EQ(cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 1, 1),
              CUDNN_STATUS_SUCCESS);
    cudnnPoolingMode_t mode;
    cudnnNanPropagation_t nan;
    int nb, v[6];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetPooling2dDescriptor(d.desc, &mode, &nan, &v[0], nullptr, &v[2], &v[3], &v[4], &v[5]),
                    "windowWidth is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetPooling2dDescriptor(d.desc, nullptr, &nan, &v[0], &v[1], &v[2], &v[3], &v[4], &v[5]),
                    "mode is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdDescriptor(d.desc, -1, &mode, &nan, &nb, v, v + 2, v + 4),
                    "nbDimsRequested is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetPoolingNdDescriptor(d.desc, 2, &mode, &nan, nullptr, v, v + 2, v + 4), "nbDims is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdDescriptor(d.desc, 2, &mode, &nan, &nb, v, nullptr, v + 4),
                    "paddingA is NULL");
}

TEST(PoolingOutputDim, TwoDMatchesTheDocumentedFormulaOnRandomShapes) {
    const unsigned seed = 20240617;
    std::mt19937 rng(seed);
    PoolingDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const int n = 1 + rng() % 4, c = 1 + rng() % 16, h = 1 + rng() % 40, w = 1 + rng() % 40;
        const int ph = rng() % 3, pw = rng() % 3;
        const int wh = 1 + rng() % (h + 2 * ph), ww = 1 + rng() % (w + 2 * pw);
        const int sh = 1 + rng() % 4, sw = 1 + rng() % 4;
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": input " +
                     join({n, c, h, w}) + " window " + join({wh, ww}) + " padding " + join({ph, pw}) + " stride " +
                     join({sh, sw}));
        ASSERT_EQ(
            cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, wh, ww, ph, pw, sh, sw),
            CUDNN_STATUS_SUCCESS);
        TensorDesc x({n, c, h, w});
        int on = 0, oc = 0, oh = 0, ow = 0;
        ASSERT_EQ(cudnnGetPooling2dForwardOutputDim(d.desc, x.desc, &on, &oc, &oh, &ow), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(on, n);
        EXPECT_EQ(oc, c);
        EXPECT_EQ(oh, expected_output(h, wh, ph, sh));
        EXPECT_EQ(ow, expected_output(w, ww, pw, sw));
        int dims[4] = {};
        ASSERT_EQ(cudnnGetPoolingNdForwardOutputDim(d.desc, x.desc, 4, dims), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(join({dims[0], dims[1], dims[2], dims[3]}), join({on, oc, oh, ow}));
    }
}

TEST(PoolingOutputDim, ThreeDPoolingOfAFiveDTensor) {
    PoolingDesc d;
    const int window[3] = {2, 3, 3}, padding[3] = {0, 1, 1}, stride[3] = {2, 2, 1};
    ASSERT_EQ(cudnnSetPoolingNdDescriptor(d.desc, CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, CUDNN_NOT_PROPAGATE_NAN,
                                          3, window, padding, stride),
              CUDNN_STATUS_SUCCESS);
    TensorDesc x({2, 8, 9, 16, 15});
    int dims[5] = {};
    ASSERT_EQ(cudnnGetPoolingNdForwardOutputDim(d.desc, x.desc, 5, dims), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(join({dims[0], dims[1], dims[2], dims[3], dims[4]}), "2x8x4x8x15");
}

TEST(PoolingOutputDim, RejectsAWindowLargerThanThePaddedInput) {
    PoolingDesc d;
    ASSERT_EQ(cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 7, 2, 1, 0, 1, 1),
              CUDNN_STATUS_SUCCESS);
    TensorDesc x({1, 1, 4, 4});
    int n, c, h, w;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPooling2dForwardOutputDim(d.desc, x.desc, &n, &c, &h, &w),
                    "cudnnGetPooling2dForwardOutputDim", "is 4", "padding 1", "window 7");
}

TEST(PoolingOutputDim, RejectsMismatchedDimCounts) {
    PoolingDesc d;
    const int window[3] = {2, 2, 2}, padding[3] = {0, 0, 0}, stride[3] = {2, 2, 2};
    ASSERT_EQ(
        cudnnSetPoolingNdDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 3, window, padding, stride),
        CUDNN_STATUS_SUCCESS);
    TensorDesc x4({1, 1, 4, 4});
    int dims[5];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdForwardOutputDim(d.desc, x4.desc, 4, dims),
                    "cudnnGetPoolingNdForwardOutputDim", "inputTensorDesc has 4 dims", "needs 5");
    TensorDesc x5({1, 1, 4, 4, 4});
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdForwardOutputDim(d.desc, x5.desc, 4, dims), "nbDims is 4",
                    "inputTensorDesc has 5 dims");
    int n, c, h, w;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPooling2dForwardOutputDim(d.desc, x5.desc, &n, &c, &h, &w),
                    "3-D pooling", "cudnnGetPoolingNdForwardOutputDim");
}

TEST(PoolingOutputDim, RejectsUnsetDescriptorsAndNullPointers) {
    PoolingDesc unset;
    TensorDesc x({1, 1, 4, 4});
    int n, c, h, w;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPooling2dForwardOutputDim(unset.desc, x.desc, &n, &c, &h, &w),
                    "poolingDesc has not been set");
    PoolingDesc d;
    ASSERT_EQ(cudnnSetPooling2dDescriptor(d.desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2),
              CUDNN_STATUS_SUCCESS);
    TensorDesc unset_tensor;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetPooling2dForwardOutputDim(d.desc, unset_tensor.desc, &n, &c, &h, &w),
                    "inputTensorDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPooling2dForwardOutputDim(d.desc, nullptr, &n, &c, &h, &w),
                    "inputTensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPooling2dForwardOutputDim(d.desc, x.desc, &n, &c, nullptr, &w),
                    "h is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdForwardOutputDim(d.desc, x.desc, 4, nullptr),
                    "outputTensorDimA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetPoolingNdForwardOutputDim(nullptr, x.desc, 4, &n),
                    "poolingDesc is NULL");
}

TEST(PoolingDescriptor, DestroyingNullIsANoOp) {
    EXPECT_EQ(cudnnDestroyPoolingDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}
