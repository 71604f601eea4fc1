// cudnnCreate/Destroy SpatialTransformerDescriptor and cudnnSetSpatialTransformerNdDescriptor through
// the public API (cuDNN has no getter; the grid generator and sampler tests read the descriptor back).
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>

namespace {

struct SpatialTransformerDesc {
    cudnnSpatialTransformerDescriptor_t desc = nullptr;
    SpatialTransformerDesc() { EXPECT_EQ(cudnnCreateSpatialTransformerDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~SpatialTransformerDesc() { EXPECT_EQ(cudnnDestroySpatialTransformerDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

}  // namespace

TEST(SpatialTransformerDescriptor, AcceptsRandomFourDimensionalShapes) {
    const unsigned seed = 20240618;
    std::mt19937 rng(seed);
    SpatialTransformerDesc d;
    const cudnnDataType_t types[] = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF};
    for (int trial = 0; trial < 20; ++trial) {
        const int dims[4] = {static_cast<int>(1 + rng() % 8), static_cast<int>(1 + rng() % 16),
                             static_cast<int>(1 + rng() % 64), static_cast<int>(1 + rng() % 64)};
        const cudnnDataType_t type = types[rng() % 3];
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": " +
                     std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" + std::to_string(dims[2]) + "x" +
                     std::to_string(dims[3]) + " type " + std::to_string(type));
        EXPECT_EQ(cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, type, 4, dims),
                  CUDNN_STATUS_SUCCESS);
    }
}

TEST(SpatialTransformerDescriptor, RejectsDimCountsOtherThanFour) {
    SpatialTransformerDesc d;
    const int dims[CUDNN_DIM_MAX + 1] = {2, 3, 4, 5, 6, 7, 8, 9, 10};
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 5, dims),
                    "cudnnSetSpatialTransformerNdDescriptor", "nbDims is 5", "only 4-D");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 3, dims),
                    "nbDims is 3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 0, dims),
                    "nbDims is 0", "CUDNN_DIM_MAX");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT,
                                                           CUDNN_DIM_MAX + 1, dims),
                    "nbDims is 9");
}

TEST(SpatialTransformerDescriptor, RejectsNonPositiveDims) {
    SpatialTransformerDesc d;
    const int dims[4] = {2, 3, 0, 5};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 4, dims),
                    "dimA[2] is 0", "positive");
    const int negative[4] = {-1, 3, 4, 5};
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 4, negative),
        "dimA[0] is -1");
}

TEST(SpatialTransformerDescriptor, RejectsValuesOutsideTheirEnums) {
    SpatialTransformerDesc d;
    const int dims[4] = {2, 3, 4, 5};
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetSpatialTransformerNdDescriptor(d.desc, static_cast<cudnnSamplerType_t>(1), CUDNN_DATA_FLOAT, 4, dims),
        "samplerType is 1", "cudnnSamplerType_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR,
                                                           static_cast<cudnnDataType_t>(99), 4, dims),
                    "dataType is 99", "cudnnDataType_t");
}

TEST(SpatialTransformerDescriptor, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateSpatialTransformerDescriptor(nullptr), "stDesc is NULL");
    const int dims[4] = {2, 3, 4, 5};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSpatialTransformerNdDescriptor(nullptr, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 4, dims),
                    "stDesc is NULL");
    SpatialTransformerDesc d;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnSetSpatialTransformerNdDescriptor(d.desc, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_FLOAT, 4, nullptr),
        "dimA is NULL");
}

TEST(SpatialTransformerDescriptor, DestroyingNullIsANoOp) {
    EXPECT_EQ(cudnnDestroySpatialTransformerDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}
