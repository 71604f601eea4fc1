// Tensor transform descriptors and cudnnInitTransformDest through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace {

struct Transform {
    cudnnTensorTransformDescriptor_t desc = nullptr;
    Transform() { EXPECT_EQ(cudnnCreateTensorTransformDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~Transform() { cudnnDestroyTensorTransformDescriptor(desc); }
    Transform(const Transform &) = delete;
    Transform &operator=(const Transform &) = delete;
};

struct Tensor {
    cudnnTensorDescriptor_t desc = nullptr;
    Tensor() { EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~Tensor() { cudnnDestroyTensorDescriptor(desc); }
    Tensor(const Tensor &) = delete;
    Tensor &operator=(const Tensor &) = delete;
};

template <class T>
std::string join(const T *values, int count) {
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

constexpr unsigned kSeed = 8907;

}  // namespace

TEST(TensorTransformDescriptor, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateTensorTransformDescriptor(nullptr),
                    "cudnnCreateTensorTransformDescriptor", "transformDesc is NULL");
    EXPECT_EQ(cudnnDestroyTensorTransformDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST(TensorTransformDescriptor, RoundTripsRandomSettings) {
    std::mt19937 rng(kSeed);
    for (int trial = 0; trial < 40; ++trial) {
        const uint32_t nb = 3 + rng() % 6;
        const cudnnTensorFormat_t format = static_cast<cudnnTensorFormat_t>(rng() % 3);
        const cudnnFoldingDirection_t direction = static_cast<cudnnFoldingDirection_t>(rng() % 2);
        int32_t before[8], after[8];
        uint32_t fold[6];
        for (uint32_t i = 0; i < nb; ++i) before[i] = int32_t(rng() % 7) - 3, after[i] = int32_t(rng() % 7) - 3;
        for (uint32_t i = 0; i + 2 < nb; ++i) fold[i] = 1 + rng() % 4;
        SCOPED_TRACE("seed " + std::to_string(kSeed) + " trial " + std::to_string(trial) + ": nbDims " +
                     std::to_string(nb) + " before " + join(before, nb) + " after " + join(after, nb) + " fold " +
                     join(fold, nb - 2));
        Transform t;
        ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, nb, format, before, after, fold, direction),
                  CUDNN_STATUS_SUCCESS);
        cudnnTensorFormat_t got_format;
        cudnnFoldingDirection_t got_direction;
        int32_t got_before[8], got_after[8];
        uint32_t got_fold[6];
        ASSERT_EQ(
            cudnnGetTensorTransformDescriptor(t.desc, nb, &got_format, got_before, got_after, got_fold, &got_direction),
            CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(got_format, format);
        EXPECT_EQ(got_direction, direction);
        EXPECT_EQ(join(got_before, nb), join(before, nb));
        EXPECT_EQ(join(got_after, nb), join(after, nb));
        EXPECT_EQ(join(got_fold, nb - 2), join(fold, nb - 2));
    }
}

TEST(TensorTransformDescriptor, NullPadsAndFoldsMeanNone) {
    Transform t;
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NHWC, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    cudnnTensorFormat_t format;
    cudnnFoldingDirection_t direction;
    int32_t before[4] = {9, 9, 9, 9}, after[4] = {9, 9, 9, 9};
    uint32_t fold[2] = {9, 9};
    ASSERT_EQ(cudnnGetTensorTransformDescriptor(t.desc, 4, &format, before, after, fold, &direction),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(join(before, 4), "0x0x0x0");
    EXPECT_EQ(join(after, 4), "0x0x0x0");
    EXPECT_EQ(join(fold, 2), "1x1");
}

TEST(TensorTransformDescriptor, GetWithFewerRequestedDimsReturnsTheFirstOnes) {
    Transform t;
    const int32_t before[5] = {1, 2, 3, 4, 5}, after[5] = {6, 7, 8, 9, 10};
    const uint32_t fold[3] = {2, 3, 4};
    ASSERT_EQ(
        cudnnSetTensorTransformDescriptor(t.desc, 5, CUDNN_TENSOR_NCHW, before, after, fold, CUDNN_TRANSFORM_UNFOLD),
        CUDNN_STATUS_SUCCESS);
    cudnnTensorFormat_t format;
    cudnnFoldingDirection_t direction;
    int32_t got_before[5] = {-1, -1, -1, -1, -1}, got_after[5] = {-1, -1, -1, -1, -1};
    uint32_t got_fold[3] = {0, 0, 0};
    ASSERT_EQ(cudnnGetTensorTransformDescriptor(t.desc, 3, &format, got_before, got_after, got_fold, &direction),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(join(got_before, 5), "1x2x3x-1x-1");
    EXPECT_EQ(join(got_after, 5), "6x7x8x-1x-1");
    EXPECT_EQ(join(got_fold, 3), "2x0x0");
    EXPECT_EQ(direction, CUDNN_TRANSFORM_UNFOLD);
}

TEST(TensorTransformDescriptor, SetRejectsBadArguments) {
    Transform t;
    const int32_t pads[9] = {};
    const uint32_t fold[7] = {1, 1, 1, 1, 1, 1, 1};
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetTensorTransformDescriptor(nullptr, 4, CUDNN_TENSOR_NCHW, pads, pads, fold, CUDNN_TRANSFORM_FOLD),
        "cudnnSetTensorTransformDescriptor", "transformDesc is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetTensorTransformDescriptor(t.desc, 2, CUDNN_TENSOR_NCHW, pads, pads, fold, CUDNN_TRANSFORM_FOLD),
        "nbDims is 2", "between 3 and 8");
    EXPECT_REJECTED(
        CUDNN_STATUS_NOT_SUPPORTED,
        cudnnSetTensorTransformDescriptor(t.desc, 9, CUDNN_TENSOR_NCHW, pads, pads, fold, CUDNN_TRANSFORM_FOLD),
        "nbDims is 9", "CUDNN_DIM_MAX");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensorTransformDescriptor(t.desc, 4, static_cast<cudnnTensorFormat_t>(5), pads, pads, fold,
                                                      CUDNN_TRANSFORM_FOLD),
                    "destFormat is 5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, pads, pads, fold,
                                                      static_cast<cudnnFoldingDirection_t>(2)),
                    "direction is 2", "CUDNN_TRANSFORM_FOLD");
    const uint32_t zero_fold[2] = {2, 0};
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, pads, pads, zero_fold, CUDNN_TRANSFORM_FOLD),
        "foldA[1] is 0", "at least 1");
}

TEST(TensorTransformDescriptor, GetRejectsUnsetDescriptorAndBadArguments) {
    Transform t;
    cudnnTensorFormat_t format;
    cudnnFoldingDirection_t direction;
    int32_t before[8], after[8];
    uint32_t fold[6];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensorTransformDescriptor(t.desc, 4, &format, before, after, fold, &direction),
                    "transformDesc has not been set");
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensorTransformDescriptor(t.desc, 2, &format, before, after, fold, &direction),
                    "nbDimsRequested is 2");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensorTransformDescriptor(t.desc, 9, &format, before, after, fold, &direction),
                    "nbDimsRequested is 9");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensorTransformDescriptor(t.desc, 4, &format, before, after, fold, nullptr),
                    "direction is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetTensorTransformDescriptor(nullptr, 4, &format, before, after, fold, &direction),
                    "transformDesc is NULL");
}

TEST(InitTransformDest, LayoutChangeKeepsDimsAndPacksTheDestination) {
    Transform t;
    Tensor src, dest;
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NHWC, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    // A strided (padded) source: the destination is packed anyway.
    ASSERT_EQ(cudnnSetTensor4dDescriptorEx(src.desc, CUDNN_DATA_HALF, 2, 3, 4, 5, 100, 30, 6, 1), CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(dest.desc), std::to_string(CUDNN_DATA_HALF) + " 2x3x4x5 60x1x15x3");
    EXPECT_EQ(bytes, 2u * 3 * 4 * 5 * 2);
}

TEST(InitTransformDest, PadsThenFoldsSpatialDimsIntoChannels) {
    Transform t;
    Tensor src, dest;
    const int32_t before[4] = {0, 1, 1, 0}, after[4] = {0, 1, 0, 1};
    const uint32_t fold[2] = {2, 3};
    ASSERT_EQ(
        cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, before, after, fold, CUDNN_TRANSFORM_FOLD),
        CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 2, 5, 6),
              CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes), CUDNN_STATUS_SUCCESS);
    // Padded to 1x4x6x7, then H folded by 2 and W by 3 (rounding up): C 4*6, H 3, W 3.
    EXPECT_EQ(shape_of(dest.desc), std::to_string(CUDNN_DATA_FLOAT) + " 1x24x3x3 216x9x3x1");
    EXPECT_EQ(bytes, 216u * 4);
}

TEST(InitTransformDest, UnfoldUndoesAFold) {
    Transform fold_t, unfold_t;
    Tensor src, folded, unfolded;
    const uint32_t fold[2] = {2, 3};
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(fold_t.desc, 4, CUDNN_TENSOR_NCHW, nullptr, nullptr, fold,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(unfold_t.desc, 4, CUDNN_TENSOR_NCHW, nullptr, nullptr, fold,
                                                CUDNN_TRANSFORM_UNFOLD),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 4, 6),
              CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnInitTransformDest(fold_t.desc, src.desc, folded.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(folded.desc), std::to_string(CUDNN_DATA_FLOAT) + " 2x18x2x2 72x4x2x1");
    ASSERT_EQ(cudnnInitTransformDest(unfold_t.desc, folded.desc, unfolded.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(unfolded.desc), shape_of(src.desc));
    EXPECT_EQ(bytes, 2u * 3 * 4 * 6 * 4);
}

TEST(InitTransformDest, NegativePaddingCrops) {
    Transform t;
    Tensor src, dest;
    const int32_t before[4] = {0, 0, -1, 0}, after[4] = {0, 0, 0, -2};
    ASSERT_EQ(
        cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, before, after, nullptr, CUDNN_TRANSFORM_FOLD),
        CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_DOUBLE, 1, 2, 5, 6),
              CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(dest.desc), std::to_string(CUDNN_DATA_DOUBLE) + " 1x2x4x4 32x16x4x1");
    EXPECT_EQ(bytes, 32u * 8);
}

TEST(InitTransformDest, VectorisedDataLeavesVectCAsItsElementType) {
    Transform to_nchw, to_vect;
    Tensor src, dest;
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(to_nchw.desc, 4, CUDNN_TENSOR_NCHW, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(to_vect.desc, 4, CUDNN_TENSOR_NCHW_VECT_C, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW_VECT_C, CUDNN_DATA_INT8x4, 1, 8, 2, 2),
              CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    ASSERT_EQ(cudnnInitTransformDest(to_nchw.desc, src.desc, dest.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(dest.desc), std::to_string(CUDNN_DATA_INT8) + " 1x8x2x2 32x4x2x1");
    EXPECT_EQ(bytes, 32u);
    // Vectors stay vectors.
    ASSERT_EQ(cudnnInitTransformDest(to_vect.desc, src.desc, dest.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(dest.desc), std::to_string(CUDNN_DATA_INT8x4) + " 1x8x2x2 8x4x2x1");
    // Plain int8 does not say its vector width; float cannot be vectorised at all.
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_INT8, 1, 8, 2, 2),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnInitTransformDest(to_vect.desc, src.desc, dest.desc, &bytes),
                    "CUDNN_DATA_INT8", "CUDNN_TENSOR_NCHW_VECT_C", "vector width");
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 8, 2, 2),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(to_vect.desc, src.desc, dest.desc, &bytes),
                    "CUDNN_TENSOR_NCHW_VECT_C", "CUDNN_DATA_FLOAT");
}

TEST(InitTransformDest, RejectsMismatchedOrUnsupportedRanks) {
    Transform t;
    Tensor src, dest;
    size_t bytes = 0;
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, 5, CUDNN_TENSOR_NCHW, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 2, 3, 4),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes),
                    "cudnnInitTransformDest", "transformDesc is set for 5 dims", "srcDesc has 4");
    const int dims[5] = {1, 2, 3, 4, 5};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 5, dims),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes),
                    "srcDesc has 5 dims", "4d tensors only");
}

TEST(InitTransformDest, RejectsGeometryItCannotProduce) {
    Transform t;
    Tensor src, dest;
    size_t bytes = 0;
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 6, 3, 3),
              CUDNN_STATUS_SUCCESS);
    const int32_t crop[4] = {0, 0, -2, 0}, none[4] = {0, 0, 0, 0};
    ASSERT_EQ(
        cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, crop, crop, nullptr, CUDNN_TRANSFORM_FOLD),
        CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes), "dim 2",
                    "into -1", "must stay positive");
    const uint32_t fold[2] = {2, 2};
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, none, none, fold, CUDNN_TRANSFORM_UNFOLD),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes),
                    "srcDesc has 6 channels", "multiple of 4");
}

TEST(InitTransformDest, RejectsNullOrUnsetArgumentsAndKeepsDestOnFailure) {
    Transform t, unset;
    Tensor src, dest, never_set;
    size_t bytes = 0;
    ASSERT_EQ(cudnnSetTensorTransformDescriptor(t.desc, 4, CUDNN_TENSOR_NCHW, nullptr, nullptr, nullptr,
                                                CUDNN_TRANSFORM_FOLD),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 2, 3, 4),
              CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(nullptr, src.desc, dest.desc, &bytes),
                    "transformDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(unset.desc, src.desc, dest.desc, &bytes),
                    "transformDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(t.desc, never_set.desc, dest.desc, &bytes),
                    "srcDesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(t.desc, src.desc, nullptr, &bytes),
                    "destDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnInitTransformDest(t.desc, src.desc, dest.desc, nullptr),
                    "destSizeInBytes is NULL");

    ASSERT_EQ(cudnnSetTensor4dDescriptor(dest.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, 7, 7, 7, 7),
              CUDNN_STATUS_SUCCESS);
    const int dims[5] = {1, 2, 3, 4, 5};
    ASSERT_EQ(cudnnSetTensorNdDescriptorEx(src.desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 5, dims),
              CUDNN_STATUS_SUCCESS);
    EXPECT_NE(cudnnInitTransformDest(t.desc, src.desc, dest.desc, &bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(shape_of(dest.desc), std::to_string(CUDNN_DATA_HALF) + " 7x7x7x7 343x49x7x1");
}
