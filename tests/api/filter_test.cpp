// Filter descriptors through the public API: 4d and Nd setters and getters, formats, sizes, rules.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>
#include <vector>

namespace {

// A filter descriptor destroyed at scope exit.
struct Filter {
    cudnnFilterDescriptor_t desc = nullptr;
    Filter() { EXPECT_EQ(cudnnCreateFilterDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~Filter() { cudnnDestroyFilterDescriptor(desc); }
    Filter(const Filter &) = delete;
    Filter &operator=(const Filter &) = delete;
};

std::string join(const int *values, int count) {
    std::string text;
    for (int i = 0; i < count; ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

size_t size_of(cudnnFilterDescriptor_t desc) {
    size_t size = 0;
    EXPECT_EQ(cudnnGetFilterSizeInBytes(desc, &size), CUDNN_STATUS_SUCCESS);
    return size;
}

constexpr unsigned kSeed = 8907;

}  // namespace

TEST(FilterDescriptor, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateFilterDescriptor(nullptr), "cudnnCreateFilterDescriptor",
                    "filterDesc is NULL");
    EXPECT_EQ(cudnnDestroyFilterDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(FilterDescriptor, GettersRejectANeverSetDescriptor) {
    Filter f;
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int k, c, h, w, nb, dims[8];
    size_t size;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilter4dDescriptor(f.desc, &type, &format, &k, &c, &h, &w),
                    "filterDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilterNdDescriptor(f.desc, 8, &type, &format, &nb, dims),
                    "filterDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilterSizeInBytes(f.desc, &size), "filterDesc has not been set");
}

TEST(FilterDescriptor, RejectsNullDescriptorAndOutputs) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(nullptr, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 2, 3, 3),
                    "cudnnSetFilter4dDescriptor", "filterDesc is NULL");
    Filter f;
    ASSERT_EQ(cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 1, 2, 3, 3),
              CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    int k, c, h, w, nb, dims[4];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilter4dDescriptor(f.desc, &type, nullptr, &k, &c, &h, &w),
                    "format is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilterNdDescriptor(f.desc, 4, &type, nullptr, &nb, dims),
                    "format is NULL");
    cudnnTensorFormat_t format;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilterNdDescriptor(f.desc, 4, &type, &format, &nb, nullptr),
                    "filterDimA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilterSizeInBytes(f.desc, nullptr), "size is NULL");
}

TEST(Filter4d, RoundTripsRandomFiltersInEveryFormat) {
    std::mt19937 rng(kSeed);
    struct Case {
        cudnnTensorFormat_t format;
        cudnnDataType_t type;
        int vector;
        size_t bytes_per_vector;
    };
    const Case cases[] = {
        {CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 4},         {CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, 2},
        {CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 1, 8},        {CUDNN_TENSOR_NHWC, CUDNN_DATA_INT8, 1, 1},
        {CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, 4, 4}, {CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x32, 32, 32},
        {CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_UINT8x4, 4, 4}};
    for (int trial = 0; trial < 50; ++trial) {
        const Case &cs = cases[rng() % 7];
        const int k = 1 + rng() % 64, c = cs.vector * (1 + rng() % 8), h = 1 + rng() % 7, w = 1 + rng() % 7;
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " trial " + std::to_string(trial) + ": format " +
                     std::to_string(cs.format) + " type " + std::to_string(cs.type) + " " + std::to_string(k) + "x" +
                     std::to_string(c) + "x" + std::to_string(h) + "x" + std::to_string(w));
        Filter f;
        ASSERT_EQ(cudnnSetFilter4dDescriptor(f.desc, cs.type, cs.format, k, c, h, w), CUDNN_STATUS_SUCCESS);
        cudnnDataType_t type;
        cudnnTensorFormat_t format;
        int gk, gc, gh, gw;
        ASSERT_EQ(cudnnGetFilter4dDescriptor(f.desc, &type, &format, &gk, &gc, &gh, &gw), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(type, cs.type);
        EXPECT_EQ(format, cs.format);
        EXPECT_EQ(gk, k);
        EXPECT_EQ(gc, c);  // K, C, H, W whatever the format
        EXPECT_EQ(gh, h);
        EXPECT_EQ(gw, w);
        EXPECT_EQ(size_of(f.desc), size_t(k) * (c / cs.vector) * h * w * cs.bytes_per_vector);
    }
}

TEST(Filter4d, RejectsNonPositiveDims) {
    Filter f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 0, 3, 3, 3), "k is 0",
                    "must be positive");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, 8, 3, 3, -1), "w is -1");
}

TEST(Filter4d, RejectsInvalidFormatAndDataType) {
    Filter f;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_FLOAT, static_cast<cudnnTensorFormat_t>(3), 1, 1, 1, 1),
        "format is 3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(f.desc, static_cast<cudnnDataType_t>(42), CUDNN_TENSOR_NCHW, 1, 1, 1, 1),
                    "dataType is 42");
}

TEST(Filter4d, VectCNeedsAVectorisedTypeAndWholeVectors) {
    Filter f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_HALF, CUDNN_TENSOR_NCHW_VECT_C, 8, 4, 3, 3),
                    "CUDNN_TENSOR_NCHW_VECT_C", "CUDNN_DATA_HALF");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_INT8x4, CUDNN_TENSOR_NHWC, 8, 4, 3, 3),
                    "CUDNN_DATA_INT8x4", "only supported with format CUDNN_TENSOR_NCHW_VECT_C");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_INT8x32, CUDNN_TENSOR_NCHW_VECT_C, 8, 16, 3, 3),
                    "c is 16", "multiple of 32");
}

TEST(Filter4d, GetRejectsAFilterOfOtherRank) {
    Filter f;
    const int dims[5] = {8, 4, 3, 3, 3};
    ASSERT_EQ(cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 5, dims), CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int k, c, h, w;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilter4dDescriptor(f.desc, &type, &format, &k, &c, &h, &w),
                    "filterDesc has 5 dims", "needs 4");
}

TEST(FilterNd, RoundTripsRandomRanks) {
    std::mt19937 rng(kSeed + 1);
    for (int trial = 0; trial < 50; ++trial) {
        const int nb = 3 + int(rng() % 6);
        const cudnnTensorFormat_t format = rng() % 2 ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW;
        std::vector<int> dims(nb);
        for (int &d : dims) d = 1 + int(rng() % 5);
        SCOPED_TRACE("seed " + std::to_string(kSeed + 1) + " trial " + std::to_string(trial) + ": format " +
                     std::to_string(format) + " dims " + join(dims.data(), nb));
        Filter f;
        ASSERT_EQ(cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_BFLOAT16, format, nb, dims.data()),
                  CUDNN_STATUS_SUCCESS);
        cudnnDataType_t type;
        cudnnTensorFormat_t got_format;
        int got_nb = 0, got[8] = {};
        ASSERT_EQ(cudnnGetFilterNdDescriptor(f.desc, 8, &type, &got_format, &got_nb, got), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(type, CUDNN_DATA_BFLOAT16);
        EXPECT_EQ(got_format, format);
        EXPECT_EQ(got_nb, nb);
        EXPECT_EQ(join(got, got_nb), join(dims.data(), nb));
        size_t elements = 1;
        for (int d : dims) elements *= d;
        EXPECT_EQ(size_of(f.desc), elements * 2);
    }
}

TEST(FilterNd, RejectsNbDimsOutOfRange) {
    Filter f;
    const int dims[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 2, dims),
                    "cudnnSetFilterNdDescriptor", "nbDims is 2", "between 3 and 8");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 9, dims), "nbDims is 9");
    EXPECT_EQ(cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, dims), CUDNN_STATUS_SUCCESS);
}

TEST(FilterNd, RejectsNonPositiveDimsAndNullArray) {
    Filter f;
    const int dims[5] = {8, 4, 3, 0, 3};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 5, dims),
                    "filterDimA[3] is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 5, nullptr),
                    "filterDimA is NULL");
}

TEST(FilterNd, GetWithFewerRequestedDimsReturnsTheFirstOnes) {
    Filter f;
    const int dims[5] = {16, 8, 3, 5, 7};
    ASSERT_EQ(cudnnSetFilterNdDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, 5, dims), CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int nb = 0, got[5] = {-1, -1, -1, -1, -1};
    ASSERT_EQ(cudnnGetFilterNdDescriptor(f.desc, 2, &type, &format, &nb, got), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb, 5);
    EXPECT_EQ(format, CUDNN_TENSOR_NHWC);
    EXPECT_EQ(join(got, 5), "16x8x-1x-1x-1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetFilterNdDescriptor(f.desc, -1, &type, &format, &nb, got),
                    "nbDimsRequested is -1");
}

TEST(FilterDescriptor, FailedSetLeavesTheDescriptorAsItWas) {
    Filter f;
    ASSERT_EQ(cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC, 8, 4, 3, 3), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, 0, 3, 3),
              CUDNN_STATUS_BAD_PARAM);
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int k, c, h, w;
    ASSERT_EQ(cudnnGetFilter4dDescriptor(f.desc, &type, &format, &k, &c, &h, &w), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(type, CUDNN_DATA_HALF);
    EXPECT_EQ(format, CUDNN_TENSOR_NHWC);
    EXPECT_EQ(c, 4);
}

TEST(FilterDescriptor, TraceNamesTheLayout) {
    Filter f;
    ASSERT_EQ(cudnnSetFilter4dDescriptor(f.desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC, 64, 3, 7, 7),
              CUDNN_STATUS_SUCCESS);
    librednn::test::LogCapture capture(CUDNN_SEV_INFO_EN);
    size_t size = 0;
    ASSERT_EQ(cudnnGetFilterSizeInBytes(f.desc, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, 64u * 3 * 7 * 7 * 4);
    EXPECT_TRUE(capture.contains({"cudnnGetFilterSizeInBytes", "FilterDescriptor{float KRSC 64x3x7x7}"}))
        << capture.all();
}
