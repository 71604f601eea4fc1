// The convolution descriptor through the public API: defaults, set/get round trips, the forward
// output shape, and each documented rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>
#include <vector>

namespace {

constexpr unsigned kSeed = 20240607;

// A created convolution descriptor, destroyed at scope exit.
struct ConvDesc {
    cudnnConvolutionDescriptor_t desc = nullptr;
    ConvDesc() { EXPECT_EQ(cudnnCreateConvolutionDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~ConvDesc() { cudnnDestroyConvolutionDescriptor(desc); }
    operator cudnnConvolutionDescriptor_t() const { return desc; }
};

struct TensorDesc {
    cudnnTensorDescriptor_t desc = nullptr;
    TensorDesc() { cudnnCreateTensorDescriptor(&desc); }
    ~TensorDesc() { cudnnDestroyTensorDescriptor(desc); }
    operator cudnnTensorDescriptor_t() const { return desc; }
};

struct FilterDesc {
    cudnnFilterDescriptor_t desc = nullptr;
    FilterDesc() { cudnnCreateFilterDescriptor(&desc); }
    ~FilterDesc() { cudnnDestroyFilterDescriptor(desc); }
    operator cudnnFilterDescriptor_t() const { return desc; }
};

std::string join(const std::vector<int> &values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

// Packed NCHW-order strides for `dims`.
std::vector<int> packed_strides(const std::vector<int> &dims) {
    std::vector<int> strides(dims.size(), 1);
    for (int i = static_cast<int>(dims.size()) - 2; i >= 0; --i) strides[i] = strides[i + 1] * dims[i + 1];
    return strides;
}

// Sets a float tensor and filter through the tensor and filter APIs; false (and why) when that API is not
// available in this build yet.
bool set_tensor(cudnnTensorDescriptor_t desc, const std::vector<int> &dims, std::string *why) {
    const std::vector<int> strides = packed_strides(dims);
    cudnnStatus_t status =
        cudnnSetTensorNdDescriptor(desc, CUDNN_DATA_FLOAT, static_cast<int>(dims.size()), dims.data(), strides.data());
    if (status != CUDNN_STATUS_SUCCESS)
        *why = std::string("cudnnSetTensorNdDescriptor: ") + cudnnGetErrorString(status);
    return status == CUDNN_STATUS_SUCCESS;
}

bool set_filter(cudnnFilterDescriptor_t desc, const std::vector<int> &dims, std::string *why) {
    cudnnStatus_t status = cudnnSetFilterNdDescriptor(desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW,
                                                      static_cast<int>(dims.size()), dims.data());
    if (status != CUDNN_STATUS_SUCCESS)
        *why = std::string("cudnnSetFilterNdDescriptor: ") + cudnnGetErrorString(status);
    return status == CUDNN_STATUS_SUCCESS;
}

#define SET_TENSOR_OR_SKIP(desc, dims)                                                              \
    do {                                                                                            \
        std::string why_;                                                                           \
        if (!set_tensor((desc), (dims), &why_)) GTEST_SKIP() << "tensor API unavailable: " << why_; \
    } while (0)
#define SET_FILTER_OR_SKIP(desc, dims)                                                              \
    do {                                                                                            \
        std::string why_;                                                                           \
        if (!set_filter((desc), (dims), &why_)) GTEST_SKIP() << "filter API unavailable: " << why_; \
    } while (0)

int expected_output(int in, int pad, int filter, int dilation, int stride) {
    return 1 + (in + 2 * pad - ((filter - 1) * dilation + 1)) / stride;
}

}  // namespace

TEST(ConvolutionDescriptor, NewDescriptorHasDocumentedDefaults) {
    ConvDesc conv;
    cudnnMathType_t math = CUDNN_FMA_MATH;
    int groups = -1;
    cudnnReorderType_t reorder = CUDNN_NO_REORDER;
    ASSERT_EQ(cudnnGetConvolutionMathType(conv, &math), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetConvolutionGroupCount(conv, &groups), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetConvolutionReorderType(conv, &reorder), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(math, CUDNN_DEFAULT_MATH);
    EXPECT_EQ(groups, 1);
    EXPECT_EQ(reorder, CUDNN_DEFAULT_REORDER);
}

TEST(ConvolutionDescriptor, CreateRejectsNullAndDestroyNullIsNoOp) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateConvolutionDescriptor(nullptr),
                    "cudnnCreateConvolutionDescriptor", "convDesc is NULL");
    EXPECT_EQ(cudnnDestroyConvolutionDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(ConvolutionDescriptor, GeometryGetBeforeSetIsRejected) {
    ConvDesc conv;
    int p, q, u, v, dh, dw, length;
    int pads[2], strides[2], dilations[2];
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolution2dDescriptor(conv, &p, &q, &u, &v, &dh, &dw, &mode, &type),
                    "cudnnGetConvolution2dDescriptor", "convDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionNdDescriptor(conv, 2, &length, pads, strides, dilations, &mode, &type),
                    "cudnnGetConvolutionNdDescriptor", "convDesc has not been set");
}

TEST(ConvolutionDescriptor, MathGroupAndReorderRoundTrip) {
    ConvDesc conv;
    for (cudnnMathType_t math :
         {CUDNN_TENSOR_OP_MATH, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, CUDNN_FMA_MATH, CUDNN_DEFAULT_MATH}) {
        cudnnMathType_t got = static_cast<cudnnMathType_t>(-1);
        ASSERT_EQ(cudnnSetConvolutionMathType(conv, math), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnGetConvolutionMathType(conv, &got), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(got, math);
    }
    for (int groups : {1, 2, 32, 1024}) {
        int got = 0;
        ASSERT_EQ(cudnnSetConvolutionGroupCount(conv, groups), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnGetConvolutionGroupCount(conv, &got), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(got, groups);
    }
    for (cudnnReorderType_t reorder : {CUDNN_NO_REORDER, CUDNN_DEFAULT_REORDER}) {
        cudnnReorderType_t got = static_cast<cudnnReorderType_t>(-1);
        ASSERT_EQ(cudnnSetConvolutionReorderType(conv, reorder), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnGetConvolutionReorderType(conv, &got), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(got, reorder);
    }
}

TEST(ConvolutionDescriptor, GeometrySetterKeepsMathGroupAndReorder) {
    ConvDesc conv;
    ASSERT_EQ(cudnnSetConvolutionMathType(conv, CUDNN_TENSOR_OP_MATH), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolutionGroupCount(conv, 4), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolutionReorderType(conv, CUDNN_NO_REORDER), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    cudnnMathType_t math;
    int groups;
    cudnnReorderType_t reorder;
    ASSERT_EQ(cudnnGetConvolutionMathType(conv, &math), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetConvolutionGroupCount(conv, &groups), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetConvolutionReorderType(conv, &reorder), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(math, CUDNN_TENSOR_OP_MATH);
    EXPECT_EQ(groups, 4);
    EXPECT_EQ(reorder, CUDNN_NO_REORDER);
}

TEST(ConvolutionDescriptor, RejectsInvalidMathGroupAndReorder) {
    ConvDesc conv;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionMathType(conv, static_cast<cudnnMathType_t>(4)),
                    "cudnnSetConvolutionMathType", "mathType is 4", "not a cudnnMathType_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionGroupCount(conv, 0), "cudnnSetConvolutionGroupCount",
                    "groupCount is 0", "must be >= 1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionGroupCount(conv, -3), "groupCount is -3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionReorderType(conv, static_cast<cudnnReorderType_t>(2)),
                    "cudnnSetConvolutionReorderType", "reorderType is 2", "not a cudnnReorderType_t");
    int groups = 0;
    ASSERT_EQ(cudnnGetConvolutionGroupCount(conv, &groups), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(groups, 1);  // a rejected set changes nothing
}

TEST(ConvolutionDescriptor, RejectsNullDescriptorAndOutputs) {
    ConvDesc conv;
    cudnnMathType_t math;
    int groups;
    cudnnReorderType_t reorder;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionMathType(nullptr, CUDNN_DEFAULT_MATH),
                    "convDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionMathType(nullptr, &math), "convDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionMathType(conv, nullptr), "mathType is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionGroupCount(nullptr, 1), "convDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionGroupCount(nullptr, &groups), "convDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionGroupCount(conv, nullptr), "groupCount is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetConvolutionReorderType(nullptr, CUDNN_NO_REORDER),
                    "convDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionReorderType(nullptr, &reorder), "convDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionReorderType(conv, nullptr), "reorderType is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(nullptr, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "cudnnSetConvolution2dDescriptor", "convDesc is NULL");
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int p, q, u, v, dh, dw;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolution2dDescriptor(conv, &p, &q, &u, nullptr, &dh, &dw, &mode, &type), "v is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolution2dDescriptor(conv, &p, &q, &u, &v, &dh, &dw, &mode, nullptr),
                    "computeType is NULL");
}

TEST(Convolution2d, SetGetRoundTripsRandomConfigurations) {
    std::mt19937 rng(kSeed);
    std::uniform_int_distribution<int> pad(0, 9), positive(1, 6), mode_pick(0, 1);
    const cudnnDataType_t types[] = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_DOUBLE, CUDNN_DATA_INT32,
                                     CUDNN_DATA_BFLOAT16};
    ConvDesc conv;
    for (int trial = 0; trial < 50; ++trial) {
        const int ph = pad(rng), pw = pad(rng), u = positive(rng), v = positive(rng), dh = positive(rng),
                  dw = positive(rng);
        const auto mode = static_cast<cudnnConvolutionMode_t>(mode_pick(rng));
        const cudnnDataType_t type = types[rng() % 5];
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " trial " + std::to_string(trial) + ": pad " +
                     std::to_string(ph) + "x" + std::to_string(pw) + " stride " + std::to_string(u) + "x" +
                     std::to_string(v) + " dilation " + std::to_string(dh) + "x" + std::to_string(dw));
        ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, ph, pw, u, v, dh, dw, mode, type), CUDNN_STATUS_SUCCESS);
        int g[6] = {-1, -1, -1, -1, -1, -1};
        cudnnConvolutionMode_t got_mode;
        cudnnDataType_t got_type;
        ASSERT_EQ(cudnnGetConvolution2dDescriptor(conv, &g[0], &g[1], &g[2], &g[3], &g[4], &g[5], &got_mode, &got_type),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(g[0], ph);
        EXPECT_EQ(g[1], pw);
        EXPECT_EQ(g[2], u);
        EXPECT_EQ(g[3], v);
        EXPECT_EQ(g[4], dh);
        EXPECT_EQ(g[5], dw);
        EXPECT_EQ(got_mode, mode);
        EXPECT_EQ(got_type, type);
        // The same descriptor read as Nd: rank 2 and the same values.
        int length = 0, pads[2], strides[2], dilations[2];
        ASSERT_EQ(cudnnGetConvolutionNdDescriptor(conv, 2, &length, pads, strides, dilations, &got_mode, &got_type),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(length, 2);
        EXPECT_EQ(pads[0], ph);
        EXPECT_EQ(strides[1], v);
        EXPECT_EQ(dilations[1], dw);
    }
}

TEST(Convolution2d, RejectsNegativePadding) {
    ConvDesc conv;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, -1, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "cudnnSetConvolution2dDescriptor", "pad_h is -1", "must be >= 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, 0, -2, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "pad_w is -2", "must be >= 0");
}

TEST(Convolution2d, RejectsNonPositiveStride) {
    ConvDesc conv;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, 0, 0, 0, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "u (stride) is 0", "must be > 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, -1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "v (stride) is -1", "must be > 0");
}

TEST(Convolution2d, RejectsNonPositiveDilation) {
    ConvDesc conv;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 0, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "dilation_h is 0", "must be > 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, -4, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "dilation_w is -4", "must be > 0");
}

TEST(Convolution2d, RejectsInvalidModeAndComputeType) {
    ConvDesc conv;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, static_cast<cudnnConvolutionMode_t>(2),
                                                    CUDNN_DATA_FLOAT),
                    "mode is 2", "not a cudnnConvolutionMode_t");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, static_cast<cudnnDataType_t>(99)),
        "computeType is 99", "not a cudnnDataType_t");
}

TEST(Convolution2d, RejectedSetKeepsPreviousGeometry) {
    ConvDesc conv;
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 3, 2, 2, 1, 1, 2, CUDNN_CONVOLUTION, CUDNN_DATA_HALF),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 0, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_BAD_PARAM);
    int p, q, u, v, dh, dw;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    ASSERT_EQ(cudnnGetConvolution2dDescriptor(conv, &p, &q, &u, &v, &dh, &dw, &mode, &type), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(p, 3);
    EXPECT_EQ(u, 2);
    EXPECT_EQ(dw, 2);
    EXPECT_EQ(mode, CUDNN_CONVOLUTION);
    EXPECT_EQ(type, CUDNN_DATA_HALF);
}

TEST(Convolution2d, GetRejectsDescriptorOfOtherRank) {
    ConvDesc conv;
    const int pads[3] = {0, 0, 0}, ones[3] = {1, 1, 1};
    ASSERT_EQ(cudnnSetConvolutionNdDescriptor(conv, 3, pads, ones, ones, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int p, q, u, v, dh, dw;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolution2dDescriptor(conv, &p, &q, &u, &v, &dh, &dw, &mode, &type),
                    "convDesc holds a 3-d convolution", "cudnnGetConvolutionNdDescriptor");
}

TEST(ConvolutionNd, SetGetRoundTripsRandomConfigurations) {
    std::mt19937 rng(kSeed + 1);
    std::uniform_int_distribution<int> rank(1, 6), pad(0, 7), positive(1, 5), mode_pick(0, 1);
    ConvDesc conv;
    for (int trial = 0; trial < 50; ++trial) {
        const int n = rank(rng);
        std::vector<int> pads(n), strides(n), dilations(n);
        for (int i = 0; i < n; ++i) {
            pads[i] = pad(rng);
            strides[i] = positive(rng);
            dilations[i] = positive(rng);
        }
        const auto mode = static_cast<cudnnConvolutionMode_t>(mode_pick(rng));
        SCOPED_TRACE("seed " + std::to_string(kSeed + 1) + " trial " + std::to_string(trial) + ": pad " + join(pads) +
                     " stride " + join(strides) + " dilation " + join(dilations));
        ASSERT_EQ(cudnnSetConvolutionNdDescriptor(conv, n, pads.data(), strides.data(), dilations.data(), mode,
                                                  CUDNN_DATA_FLOAT),
                  CUDNN_STATUS_SUCCESS);
        int length = -1;
        std::vector<int> got_pads(6, -1), got_strides(6, -1), got_dilations(6, -1);
        cudnnConvolutionMode_t got_mode;
        cudnnDataType_t got_type;
        ASSERT_EQ(cudnnGetConvolutionNdDescriptor(conv, 6, &length, got_pads.data(), got_strides.data(),
                                                  got_dilations.data(), &got_mode, &got_type),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(length, n);
        got_pads.resize(n);
        got_strides.resize(n);
        got_dilations.resize(n);
        EXPECT_EQ(got_pads, pads);
        EXPECT_EQ(got_strides, strides);
        EXPECT_EQ(got_dilations, dilations);
        EXPECT_EQ(got_mode, mode);
        EXPECT_EQ(got_type, CUDNN_DATA_FLOAT);
    }
}

TEST(ConvolutionNd, GetReportsFullRankAndFillsOnlyRequestedEntries) {
    ConvDesc conv;
    const int pads[3] = {1, 2, 3}, strides[3] = {4, 5, 6}, dilations[3] = {7, 8, 9};
    ASSERT_EQ(cudnnSetConvolutionNdDescriptor(conv, 3, pads, strides, dilations, CUDNN_CONVOLUTION, CUDNN_DATA_DOUBLE),
              CUDNN_STATUS_SUCCESS);
    int length = 0, got_pads[3] = {-1, -1, -1}, got_strides[3] = {-1, -1, -1}, got_dilations[3] = {-1, -1, -1};
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    ASSERT_EQ(cudnnGetConvolutionNdDescriptor(conv, 2, &length, got_pads, got_strides, got_dilations, &mode, &type),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(length, 3);
    EXPECT_EQ(got_pads[1], 2);
    EXPECT_EQ(got_strides[1], 5);
    EXPECT_EQ(got_dilations[1], 8);
    EXPECT_EQ(got_pads[2], -1);  // beyond arrayLengthRequested: untouched
    EXPECT_EQ(type, CUDNN_DATA_DOUBLE);
    // Asking for nothing reports the rank alone; the arrays may be NULL then.
    ASSERT_EQ(cudnnGetConvolutionNdDescriptor(conv, 0, &length, nullptr, nullptr, nullptr, &mode, &type),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(length, 3);
}

TEST(ConvolutionNd, RejectsArrayLengthOutOfRange) {
    ConvDesc conv;
    const int zeros[8] = {}, ones[8] = {1, 1, 1, 1, 1, 1, 1, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolutionNdDescriptor(conv, -1, zeros, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "cudnnSetConvolutionNdDescriptor", "arrayLength is -1", "between 1 and 6");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolutionNdDescriptor(conv, 0, zeros, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "arrayLength is 0");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetConvolutionNdDescriptor(conv, 7, zeros, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "arrayLength is 7", "at most 6 (CUDNN_DIM_MAX - 2)");
}

TEST(ConvolutionNd, RejectsBadArrayEntriesNamingTheEntry) {
    ConvDesc conv;
    const int ones[3] = {1, 1, 1};
    const int bad_pads[3] = {0, -1, 0}, bad_strides[3] = {1, 1, 0}, bad_dilations[3] = {-2, 1, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolutionNdDescriptor(conv, 3, bad_pads, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "padA[1] is -1", "must be >= 0");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetConvolutionNdDescriptor(conv, 3, ones, bad_strides, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
        "filterStrideA[2] (stride) is 0", "must be > 0");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetConvolutionNdDescriptor(conv, 3, ones, ones, bad_dilations, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
        "dilationA[0] is -2", "must be > 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolutionNdDescriptor(conv, 3, ones, ones, ones, static_cast<cudnnConvolutionMode_t>(-1),
                                                    CUDNN_DATA_FLOAT),
                    "mode is -1");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetConvolutionNdDescriptor(conv, 3, ones, ones, ones, CUDNN_CONVOLUTION, static_cast<cudnnDataType_t>(15)),
        "computeType is 15");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetConvolutionNdDescriptor(conv, 3, nullptr, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
                    "padA is NULL");
}

TEST(ConvolutionNd, GetRejectsBadRequest) {
    ConvDesc conv;
    const int ones[2] = {1, 1};
    ASSERT_EQ(cudnnSetConvolutionNdDescriptor(conv, 2, ones, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int length, pads[8], strides[8], dilations[8];
    cudnnConvolutionMode_t mode;
    cudnnDataType_t type;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionNdDescriptor(conv, -1, &length, pads, strides, dilations, &mode, &type),
                    "arrayLengthRequested is -1", "must be >= 0");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnGetConvolutionNdDescriptor(conv, 7, &length, pads, strides, dilations, &mode, &type),
                    "arrayLengthRequested is 7", "at most 6");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionNdDescriptor(conv, 2, nullptr, pads, strides, dilations, &mode, &type),
                    "arrayLength is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionNdDescriptor(conv, 2, &length, pads, nullptr, dilations, &mode, &type),
                    "strideA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetConvolutionNdDescriptor(nullptr, 2, &length, pads, strides, dilations, &mode, &type),
                    "convDesc is NULL");
}

TEST(ConvolutionOutputDim, MatchesFormulaOnRandom2dProblems) {
    std::mt19937 rng(kSeed + 2);
    std::uniform_int_distribution<int> small(1, 4), size(1, 40), pad(0, 3), stride(1, 3), dilation(1, 3), filt(1, 5);
    for (int trial = 0; trial < 40; ++trial) {
        const int groups = small(rng);
        const int n = small(rng), c_per_group = small(rng), k = groups * small(rng);
        const int r = filt(rng), s = filt(rng), ph = pad(rng), pw = pad(rng), u = stride(rng), v = stride(rng),
                  dh = dilation(rng), dw = dilation(rng);
        // Input at least as large as the dilated filter, so the problem is valid.
        const int h = (r - 1) * dh + 1 + size(rng), w = (s - 1) * dw + 1 + size(rng);
        const std::vector<int> x_dims = {n, c_per_group * groups, h, w}, w_dims = {k, c_per_group, r, s};
        SCOPED_TRACE("seed " + std::to_string(kSeed + 2) + " trial " + std::to_string(trial) + ": x " + join(x_dims) +
                     " w " + join(w_dims) + " groups " + std::to_string(groups) + " pad " + std::to_string(ph) + "x" +
                     std::to_string(pw) + " stride " + std::to_string(u) + "x" + std::to_string(v) + " dilation " +
                     std::to_string(dh) + "x" + std::to_string(dw));
        TensorDesc x;
        FilterDesc wd;
        ConvDesc conv;
        SET_TENSOR_OR_SKIP(x, x_dims);
        SET_FILTER_OR_SKIP(wd, w_dims);
        ASSERT_EQ(
            cudnnSetConvolution2dDescriptor(conv, ph, pw, u, v, dh, dw, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
            CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnSetConvolutionGroupCount(conv, groups), CUDNN_STATUS_SUCCESS);
        int on = -1, oc = -1, oh = -1, ow = -1;
        ASSERT_EQ(cudnnGetConvolution2dForwardOutputDim(conv, x, wd, &on, &oc, &oh, &ow), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(on, n);
        EXPECT_EQ(oc, k);
        EXPECT_EQ(oh, expected_output(h, ph, r, dh, u));
        EXPECT_EQ(ow, expected_output(w, pw, s, dw, v));
        // The Nd query agrees.
        int dims[4] = {};
        ASSERT_EQ(cudnnGetConvolutionNdForwardOutputDim(conv, x, wd, 4, dims), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dims[0], on);
        EXPECT_EQ(dims[1], oc);
        EXPECT_EQ(dims[2], oh);
        EXPECT_EQ(dims[3], ow);
    }
}

TEST(ConvolutionOutputDim, Handles3dProblem) {
    TensorDesc x;
    FilterDesc w;
    ConvDesc conv;
    SET_TENSOR_OR_SKIP(x, (std::vector<int>{2, 8, 9, 17, 33}));
    SET_FILTER_OR_SKIP(w, (std::vector<int>{16, 8, 3, 3, 5}));
    const int pads[3] = {1, 0, 2}, strides[3] = {2, 1, 3}, dilations[3] = {1, 2, 1};
    ASSERT_EQ(
        cudnnSetConvolutionNdDescriptor(conv, 3, pads, strides, dilations, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
        CUDNN_STATUS_SUCCESS);
    int dims[5] = {};
    ASSERT_EQ(cudnnGetConvolutionNdForwardOutputDim(conv, x, w, 5, dims), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dims[0], 2);
    EXPECT_EQ(dims[1], 16);
    EXPECT_EQ(dims[2], expected_output(9, 1, 3, 1, 2));   // 5
    EXPECT_EQ(dims[3], expected_output(17, 0, 3, 2, 1));  // 13
    EXPECT_EQ(dims[4], expected_output(33, 2, 5, 1, 3));  // 11
}

TEST(ConvolutionOutputDim, RejectsChannelMismatchWithGroupCount) {
    TensorDesc x;
    FilterDesc w;
    ConvDesc conv;
    SET_TENSOR_OR_SKIP(x, (std::vector<int>{1, 12, 8, 8}));
    SET_FILTER_OR_SKIP(w, (std::vector<int>{6, 4, 3, 3}));
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int n, c, h, wo;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wo),
                    "cudnnGetConvolution2dForwardOutputDim", "inputTensorDesc has 12 channels",
                    "4 input channels x groupCount 1 = 4");
    ASSERT_EQ(cudnnSetConvolutionGroupCount(conv, 3), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wo), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(c, 6);
}

TEST(ConvolutionOutputDim, RejectsDilatedFilterLargerThanPaddedInput) {
    TensorDesc x;
    FilterDesc w;
    ConvDesc conv;
    SET_TENSOR_OR_SKIP(x, (std::vector<int>{1, 3, 8, 8}));
    SET_FILTER_OR_SKIP(w, (std::vector<int>{4, 3, 3, 3}));
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 5, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int n, c, h, wo;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wo),
                    "spatial dim 1", "dilated filter spans 11", "padded input 8");
    // Padding makes room: 8 + 2*2 = 12 >= 11.
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 2, 1, 1, 1, 5, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, &c, &h, &wo), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(wo, 2);
}

TEST(ConvolutionOutputDim, RejectsRankDisagreement) {
    TensorDesc x4, x5;
    FilterDesc w4, w5;
    ConvDesc conv2, conv3;
    SET_TENSOR_OR_SKIP(x4, (std::vector<int>{1, 3, 8, 8}));
    SET_TENSOR_OR_SKIP(x5, (std::vector<int>{1, 3, 8, 8, 8}));
    SET_FILTER_OR_SKIP(w4, (std::vector<int>{4, 3, 3, 3}));
    SET_FILTER_OR_SKIP(w5, (std::vector<int>{4, 3, 3, 3, 3}));
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv2, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    const int zeros[3] = {}, ones[3] = {1, 1, 1};
    ASSERT_EQ(cudnnSetConvolutionNdDescriptor(conv3, 3, zeros, ones, ones, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int dims[5];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionNdForwardOutputDim(conv3, x5, w4, 5, dims),
                    "filterDesc has 4 dims but inputTensorDesc has 5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionNdForwardOutputDim(conv2, x5, w5, 5, dims),
                    "convDesc has 2 spatial dims but inputTensorDesc has 5 dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionNdForwardOutputDim(conv3, x5, w5, 4, dims),
                    "nbDims is 4", "has 5 dims");
    int n, c, h, w;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv3, x5, w5, &n, &c, &h, &w),
                    "inputTensorDesc has 5 dims", "needs 4");
    EXPECT_EQ(cudnnGetConvolutionNdForwardOutputDim(conv3, x5, w5, 5, dims), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetConvolution2dForwardOutputDim(conv2, x4, w4, &n, &c, &h, &w), CUDNN_STATUS_SUCCESS);
}

TEST(ConvolutionOutputDim, RejectsUnsetOrNullArguments) {
    TensorDesc x, unset_x;
    FilterDesc w, unset_w;
    ConvDesc conv, unset_conv;
    SET_TENSOR_OR_SKIP(x, (std::vector<int>{1, 3, 8, 8}));
    SET_FILTER_OR_SKIP(w, (std::vector<int>{4, 3, 3, 3}));
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    int n, c, h, wo, dims[4];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(unset_conv, x, w, &n, &c, &h, &wo),
                    "convDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv, unset_x, w, &n, &c, &h, &wo),
                    "inputTensorDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionNdForwardOutputDim(conv, x, unset_w, 4, dims),
                    "filterDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv, nullptr, w, &n, &c, &h, &wo),
                    "inputTensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolution2dForwardOutputDim(conv, x, w, &n, nullptr, &h, &wo),
                    "c is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetConvolutionNdForwardOutputDim(conv, x, w, 4, nullptr),
                    "tensorOuputDimA is NULL");
}
