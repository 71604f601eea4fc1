// Tensor descriptors through the public API: 4d, 4dEx, Nd and NdEx setters, getters, sizes, rules.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

// A tensor descriptor destroyed at scope exit.
struct Tensor {
    cudnnTensorDescriptor_t desc = nullptr;
    Tensor() { EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~Tensor() { cudnnDestroyTensorDescriptor(desc); }
    Tensor(const Tensor &) = delete;
    Tensor &operator=(const Tensor &) = delete;
};

std::string join(const std::vector<int> &values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

struct Nd {
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    int nb_dims = 0;
    std::vector<int> dims, strides;
};

Nd get_nd(cudnnTensorDescriptor_t desc) {
    Nd nd;
    nd.dims.assign(CUDNN_DIM_MAX, -1);
    nd.strides.assign(CUDNN_DIM_MAX, -1);
    EXPECT_EQ(cudnnGetTensorNdDescriptor(desc, CUDNN_DIM_MAX, &nd.type, &nd.nb_dims, nd.dims.data(), nd.strides.data()),
              CUDNN_STATUS_SUCCESS);
    nd.dims.resize(nd.nb_dims > 0 ? nd.nb_dims : 0);
    nd.strides.resize(nd.nb_dims > 0 ? nd.nb_dims : 0);
    return nd;
}

size_t size_of(cudnnTensorDescriptor_t desc) {
    size_t size = 0;
    EXPECT_EQ(cudnnGetTensorSizeInBytes(desc, &size), CUDNN_STATUS_SUCCESS);
    return size;
}

// Bytes from the first to the last element addressed.
size_t span_bytes(const std::vector<int> &dims, const std::vector<int> &strides, size_t element_size) {
    size_t last = 0;
    for (size_t i = 0; i < dims.size(); ++i) last += size_t(dims[i] - 1) * strides[i];
    return (last + 1) * element_size;
}

constexpr unsigned kSeed = 8907;

}  // namespace

TEST(TensorDescriptor, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateTensorDescriptor(nullptr), "cudnnCreateTensorDescriptor",
                    "tensorDesc is NULL");
    EXPECT_EQ(cudnnDestroyTensorDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(TensorDescriptor, GettersRejectANeverSetDescriptor) {
    Tensor t;
    cudnnDataType_t type;
    int n, c, h, w, ns, cs, hs, ws, nb, dims[8], strides[8];
    size_t size;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensor4dDescriptor(t.desc, &type, &n, &c, &h, &w, &ns, &cs, &hs, &ws),
                    "tensorDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorNdDescriptor(t.desc, 8, &type, &nb, dims, strides),
                    "tensorDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorSizeInBytes(t.desc, &size), "cudnnGetTensorSizeInBytes",
                    "tensorDesc has not been set");
}

TEST(TensorDescriptor, RejectsNullDescriptorAndOutputs) {
    int dims[4] = {1, 2, 3, 4}, strides[4] = {24, 12, 4, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(nullptr, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 2, 3, 4),
                    "cudnnSetTensor4dDescriptor", "tensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(nullptr, CUDNN_DATA_FLOAT, 4, dims, strides),
                    "tensorDesc is NULL");
    Tensor t;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 2, 3, 4),
              CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    int n, c, w, ns, cs, hs, ws, nb;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensor4dDescriptor(t.desc, &type, &n, &c, nullptr, &w, &ns, &cs, &hs, &ws), "h is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorNdDescriptor(t.desc, 4, &type, nullptr, dims, strides),
                    "nbDims is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorNdDescriptor(t.desc, 4, &type, &nb, dims, nullptr),
                    "strideA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorSizeInBytes(t.desc, nullptr), "size is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorSizeInBytes(nullptr, nullptr), "tensorDesc is NULL");
}

TEST(Tensor4d, PackedNchwRoundTripsRandomShapes) {
    std::mt19937 rng(kSeed);
    const cudnnDataType_t types[] = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF,  CUDNN_DATA_BFLOAT16,
                                     CUDNN_DATA_INT8,  CUDNN_DATA_INT32,  CUDNN_DATA_UINT8, CUDNN_DATA_INT64};
    const size_t sizes[] = {4, 8, 2, 2, 1, 4, 1, 8};
    for (int trial = 0; trial < 50; ++trial) {
        const int pick = rng() % 8;
        const int n = 1 + rng() % 9, c = 1 + rng() % 70, h = 1 + rng() % 40, w = 1 + rng() % 40;
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " trial " + std::to_string(trial) + ": type " +
                     std::to_string(types[pick]) + " " + join({n, c, h, w}));
        Tensor t;
        ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, types[pick], n, c, h, w), CUDNN_STATUS_SUCCESS);
        cudnnDataType_t type;
        int gn, gc, gh, gw, ns, cs, hs, ws;
        ASSERT_EQ(cudnnGetTensor4dDescriptor(t.desc, &type, &gn, &gc, &gh, &gw, &ns, &cs, &hs, &ws),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(type, types[pick]);
        EXPECT_EQ(join({gn, gc, gh, gw}), join({n, c, h, w}));
        EXPECT_EQ(join({ns, cs, hs, ws}), join({c * h * w, h * w, w, 1}));
        const Nd nd = get_nd(t.desc);
        EXPECT_EQ(nd.nb_dims, 4);
        EXPECT_EQ(join(nd.dims), join({n, c, h, w}));
        EXPECT_EQ(size_of(t.desc), size_t(n) * c * h * w * sizes[pick]);
    }
}

TEST(Tensor4d, NhwcIsChannelsInnermost) {
    Tensor t;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 2, 3, 4, 5), CUDNN_STATUS_SUCCESS);
    const Nd nd = get_nd(t.desc);
    EXPECT_EQ(join(nd.dims), "2x3x4x5");       // reported in NCHW order
    EXPECT_EQ(join(nd.strides), "60x1x15x3");  // N, C, H, W strides of an NHWC layout
    EXPECT_EQ(size_of(t.desc), 2u * 3 * 4 * 5 * 2);
}

TEST(Tensor4d, VectCCountsStridesInVectors) {
    Tensor t;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, 2, 8, 3, 5),
              CUDNN_STATUS_SUCCESS);
    Nd nd = get_nd(t.desc);
    EXPECT_EQ(nd.type, CUDNN_DATA_INT8x4);
    EXPECT_EQ(join(nd.dims), "2x8x3x5");  // C counts int8 channels
    EXPECT_EQ(join(nd.strides), "30x15x5x1");
    EXPECT_EQ(size_of(t.desc), 2u * 8 * 3 * 5);

    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x32, 1, 64, 2, 2),
              CUDNN_STATUS_SUCCESS);
    nd = get_nd(t.desc);
    EXPECT_EQ(join(nd.strides), "8x4x2x1");
    EXPECT_EQ(size_of(t.desc), 64u * 2 * 2);

    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_UINT8x4, 1, 4, 1, 1),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size_of(t.desc), 4u);
}

TEST(Tensor4d, RejectsVectCWithoutAVectorisedType) {
    Tensor t;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_FLOAT, 1, 4, 2, 2),
                    "CUDNN_TENSOR_NCHW_VECT_C", "CUDNN_DATA_FLOAT", "CUDNN_DATA_INT8x4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8, 1, 4, 2, 2),
                    "CUDNN_TENSOR_NCHW_VECT_C", "CUDNN_DATA_INT8");
}

TEST(Tensor4d, RejectsVectorisedTypeWithoutVectC) {
    Tensor t;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_INT8x4, 1, 4, 2, 2),
                    "CUDNN_DATA_INT8x4", "only supported with format CUDNN_TENSOR_NCHW_VECT_C");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_INT8x32, 1, 32, 2, 2),
                    "CUDNN_DATA_INT8x32", "CUDNN_TENSOR_NHWC");
}

TEST(Tensor4d, RejectsChannelsNotAMultipleOfTheVectorSize) {
    Tensor t;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, 1, 6, 2, 2),
                    "c is 6", "multiple of 4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x32, 1, 48, 2, 2),
                    "c is 48", "multiple of 32");
}

TEST(Tensor4d, RejectsNonPositiveDims) {
    Tensor t;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 0, 2, 3, 4),
                    "cudnnSetTensor4dDescriptor", "n is 0", "must be positive");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 2, -3, 4), "h is -3");
}

TEST(Tensor4d, RejectsInvalidFormatAndDataType) {
    Tensor t;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetTensor4dDescriptor(t.desc, static_cast<cudnnTensorFormat_t>(7), CUDNN_DATA_FLOAT, 1, 2, 3, 4),
        "format is 7");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, static_cast<cudnnDataType_t>(99), 1, 2, 3, 4),
                    "dataType is 99", "cudnnDataType_t");
}

TEST(Tensor4d, RejectsMoreThanTwoGigaElementsAsNotSupported) {
    Tensor t;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_INT8, 2, 1024, 1024, 1024),
                    "2x1024x1024x1024", "2147483648 elements", "2 Giga-elements");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 65536, 65536, 65536, 65536),
                    "2 Giga-elements");
    // The largest tensor allowed: 2^31 - 1 elements.
    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_INT8, 1, 1, 1, 2147483647),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size_of(t.desc), 2147483647u);
}

TEST(Tensor4d, FailedSetLeavesTheDescriptorAsItWas) {
    Tensor t;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, 1, 2, 3, 4), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 5, 0, 3, 4),
              CUDNN_STATUS_BAD_PARAM);
    const Nd nd = get_nd(t.desc);
    EXPECT_EQ(nd.type, CUDNN_DATA_HALF);
    EXPECT_EQ(join(nd.dims), "1x2x3x4");
}

TEST(Tensor4d, GetRejectsATensorOfOtherRank) {
    Tensor t;
    const int dims[5] = {1, 2, 3, 4, 5};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 5, dims), CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    int n, c, h, w, ns, cs, hs, ws;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensor4dDescriptor(t.desc, &type, &n, &c, &h, &w, &ns, &cs, &hs, &ws),
                    "tensorDesc has 5 dims", "needs 4");
}

TEST(Tensor4dEx, StridedRoundTripsRandomLayouts) {
    std::mt19937 rng(kSeed + 1);
    for (int trial = 0; trial < 50; ++trial) {
        const std::vector<int> dims = {1 + int(rng() % 6), 1 + int(rng() % 20), 1 + int(rng() % 20),
                                       1 + int(rng() % 20)};
        // A random dimension order, each stride at least the packed one, some with gaps.
        std::vector<int> order = {0, 1, 2, 3};
        std::shuffle(order.begin(), order.end(), rng);
        std::vector<int> strides(4);
        int next = 1;
        for (int k = 3; k >= 0; --k) {
            strides[order[k]] = next + int(rng() % 3);
            next = strides[order[k]] * dims[order[k]];
        }
        SCOPED_TRACE("seed " + std::to_string(kSeed + 1) + " trial " + std::to_string(trial) + ": dims " + join(dims) +
                     " strides " + join(strides));
        Tensor t;
        ASSERT_EQ(cudnnSetTensor4dDescriptorEx(t.desc, CUDNN_DATA_FLOAT, dims[0], dims[1], dims[2], dims[3], strides[0],
                                               strides[1], strides[2], strides[3]),
                  CUDNN_STATUS_SUCCESS);
        cudnnDataType_t type;
        int n, c, h, w, ns, cs, hs, ws;
        ASSERT_EQ(cudnnGetTensor4dDescriptor(t.desc, &type, &n, &c, &h, &w, &ns, &cs, &hs, &ws), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(type, CUDNN_DATA_FLOAT);
        EXPECT_EQ(join({n, c, h, w}), join(dims));
        EXPECT_EQ(join({ns, cs, hs, ws}), join(strides));
        EXPECT_EQ(size_of(t.desc), span_bytes(dims, strides, 4));
    }
}

TEST(Tensor4dEx, RejectsNonPositiveDimsAndStrides) {
    Tensor t;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptorEx(t.desc, CUDNN_DATA_FLOAT, 1, 0, 3, 4, 12, 12, 4, 1),
                    "cudnnSetTensor4dDescriptorEx", "c is 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptorEx(t.desc, CUDNN_DATA_FLOAT, 1, 2, 3, 4, 24, 12, 4, 0), "wStride is 0",
                    "must be positive");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptorEx(t.desc, CUDNN_DATA_FLOAT, 1, 2, 3, 4, -24, 12, 4, 1),
                    "nStride is -24");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensor4dDescriptorEx(t.desc, static_cast<cudnnDataType_t>(-1), 1, 2, 3, 4, 24, 12, 4, 1),
                    "dataType is -1");
}

TEST(Tensor4dEx, RejectsSpanOverTwoGigaElementsAsNotSupported) {
    Tensor t;
    // Few elements, but the strides spread them over more than 2^31 - 1.
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetTensor4dDescriptorEx(t.desc, CUDNN_DATA_FLOAT, 3, 1, 1, 1, 1073741824, 1, 1, 1),
                    "2 Giga-elements");
}

TEST(TensorNd, StridedRoundTripsRandomRanks) {
    std::mt19937 rng(kSeed + 2);
    for (int trial = 0; trial < 60; ++trial) {
        const int nb = 3 + int(rng() % 6);
        std::vector<int> dims(nb), strides(nb);
        for (int &d : dims) d = 1 + int(rng() % 5);
        int next = 1;
        for (int i = nb - 1; i >= 0; --i) {
            strides[i] = next * (1 + int(rng() % 2));
            next = strides[i] * dims[i];
        }
        SCOPED_TRACE("seed " + std::to_string(kSeed + 2) + " trial " + std::to_string(trial) + ": dims " + join(dims) +
                     " strides " + join(strides));
        Tensor t;
        ASSERT_EQ(cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_DOUBLE, nb, dims.data(), strides.data()),
                  CUDNN_STATUS_SUCCESS);
        const Nd nd = get_nd(t.desc);
        EXPECT_EQ(nd.type, CUDNN_DATA_DOUBLE);
        EXPECT_EQ(nd.nb_dims, nb);
        EXPECT_EQ(join(nd.dims), join(dims));
        EXPECT_EQ(join(nd.strides), join(strides));
        EXPECT_EQ(size_of(t.desc), span_bytes(dims, strides, 8));
    }
}

TEST(TensorNd, RejectsNbDimsOutOfRange) {
    Tensor t;
    const int dims[9] = {2, 2, 2, 2, 2, 2, 2, 2, 2}, strides[9] = {256, 128, 64, 32, 16, 8, 4, 2, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 2, dims, strides),
                    "cudnnSetTensorNdDescriptor", "nbDims is 2", "between 3 and 8");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, -1, dims, strides),
                    "nbDims is -1");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 9, dims, strides),
                    "nbDims is 9", "CUDNN_DIM_MAX");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 9, dims),
                    "cudnnSetTensorNdDescriptorEx", "nbDims is 9");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, dims), "nbDims is 2");
    // Eight dims is the most, and fine.
    EXPECT_EQ(cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 8, dims + 1, strides + 1), CUDNN_STATUS_SUCCESS);
}

TEST(TensorNd, RejectsNonPositiveDimsAndStrides) {
    Tensor t;
    const int dims[5] = {2, 3, 0, 4, 5}, strides[5] = {180, 60, 20, 5, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 5, dims, strides),
                    "dimA[2] is 0", "must be positive");
    const int good[5] = {2, 3, 3, 4, 5}, bad_strides[5] = {180, -60, 20, 5, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 5, good, bad_strides),
                    "strideA[1] is -60");
    const int negative[3] = {2, -7, 3};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 3, negative),
                    "dimA[1] is -7");
}

TEST(TensorNd, RejectsNullArrays) {
    Tensor t;
    const int dims[4] = {1, 2, 3, 4}, strides[4] = {24, 12, 4, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 4, nullptr, strides),
                    "dimA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_FLOAT, 4, dims, nullptr),
                    "strideA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 4, nullptr),
                    "dimA is NULL");
}

TEST(TensorNd, StridedVectorisedTypeIsVectC) {
    Tensor t;
    const int dims[4] = {2, 8, 3, 3}, strides[4] = {18, 9, 3, 1};  // strides count int8x4 vectors
    ASSERT_EQ(cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_INT8x4, 4, dims, strides), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size_of(t.desc), 2u * 8 * 3 * 3);
    const int odd[4] = {2, 6, 3, 3};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetTensorNdDescriptor(t.desc, CUDNN_DATA_INT8x4, 4, odd, strides),
                    "dimA[1] is 6", "multiple of 4");
}

TEST(TensorNdEx, PackedFormatsGiveTheirStrides) {
    Tensor t;
    const int dims[5] = {2, 3, 4, 5, 6};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 5, dims), CUDNN_STATUS_SUCCESS);
    Nd nd = get_nd(t.desc);
    EXPECT_EQ(join(nd.dims), "2x3x4x5x6");
    EXPECT_EQ(join(nd.strides), "360x120x30x6x1");
    EXPECT_EQ(size_of(t.desc), 720u * 4);

    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 5, dims), CUDNN_STATUS_SUCCESS);
    nd = get_nd(t.desc);
    EXPECT_EQ(join(nd.strides), "360x1x90x18x3");  // NDHWC
    EXPECT_EQ(size_of(t.desc), 720u * 4);

    const int three[3] = {2, 3, 7};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NHWC, CUDNN_DATA_FLOAT, 3, three),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(join(get_nd(t.desc).strides), "21x1x3");  // NWC

    const int vect[5] = {1, 64, 2, 3, 4};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x32, 5, vect),
              CUDNN_STATUS_SUCCESS);
    nd = get_nd(t.desc);
    EXPECT_EQ(nd.type, CUDNN_DATA_INT8x32);
    EXPECT_EQ(join(nd.strides), "48x24x12x4x1");
    EXPECT_EQ(size_of(t.desc), 64u * 24);
}

TEST(TensorNdEx, PackedRoundTripsRandomShapes) {
    std::mt19937 rng(kSeed + 3);
    const cudnnTensorFormat_t formats[] = {CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NHWC, CUDNN_TENSOR_NCHW_VECT_C};
    for (int trial = 0; trial < 60; ++trial) {
        const cudnnTensorFormat_t format = formats[rng() % 3];
        const cudnnDataType_t type = format == CUDNN_TENSOR_NCHW_VECT_C ? CUDNN_DATA_INT8x4 : CUDNN_DATA_HALF;
        const int nb = 3 + int(rng() % 6);
        std::vector<int> dims(nb);
        for (int &d : dims) d = 1 + int(rng() % 6);
        if (format == CUDNN_TENSOR_NCHW_VECT_C) dims[1] *= 4;
        SCOPED_TRACE("seed " + std::to_string(kSeed + 3) + " trial " + std::to_string(trial) + ": format " +
                     std::to_string(format) + " dims " + join(dims));
        Tensor t;
        ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, format, type, nb, dims.data()), CUDNN_STATUS_SUCCESS);
        const Nd nd = get_nd(t.desc);
        EXPECT_EQ(nd.type, type);
        EXPECT_EQ(join(nd.dims), join(dims));
        // Packed: the strides are a permutation of running products, and the size is every element once.
        size_t elements = 1;
        for (int d : dims) elements *= d;
        EXPECT_EQ(size_of(t.desc), elements * (format == CUDNN_TENSOR_NCHW_VECT_C ? 1 : 2));
        std::vector<int> smallest_first = nd.strides;
        std::sort(smallest_first.begin(), smallest_first.end());
        EXPECT_EQ(smallest_first[0], 1);
    }
}

TEST(TensorNd, GetWithFewerRequestedDimsReturnsTheFirstOnes) {
    Tensor t;
    const int dims[5] = {2, 3, 4, 5, 6};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 5, dims), CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    int nb = 0;
    int got_dims[5] = {-1, -1, -1, -1, -1}, got_strides[5] = {-1, -1, -1, -1, -1};
    ASSERT_EQ(cudnnGetTensorNdDescriptor(t.desc, 3, &type, &nb, got_dims, got_strides), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb, 5);  // the descriptor's rank, not the number requested
    EXPECT_EQ(join(std::vector<int>(got_dims, got_dims + 5)), "2x3x4x-1x-1");
    EXPECT_EQ(join(std::vector<int>(got_strides, got_strides + 5)), "360x120x30x-1x-1");
    // Nothing requested: the arrays may be NULL.
    ASSERT_EQ(cudnnGetTensorNdDescriptor(t.desc, 0, &type, &nb, nullptr, nullptr), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb, 5);
    EXPECT_EQ(type, CUDNN_DATA_FLOAT);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetTensorNdDescriptor(t.desc, -2, &type, &nb, got_dims, got_strides),
                    "nbDimsRequested is -2");
}

TEST(TensorDescriptor, TraceDescribesTheDescriptor) {
    Tensor t;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(t.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 4, 5),
              CUDNN_STATUS_SUCCESS);
    librednn::test::LogCapture capture(CUDNN_SEV_INFO_EN);
    size_t size = 0;
    ASSERT_EQ(cudnnGetTensorSizeInBytes(t.desc, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(
        capture.contains({"cudnnGetTensorSizeInBytes", "TensorDescriptor{float 2x3x4x5 strides 60x20x5x1 NCHW}"}))
        << capture.all();
}
