// The sequence data descriptor through the public API: set/get round trips with any axis order, the
// optional outputs of the getter and each documented rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

namespace {

class SeqDataDescriptor : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(cudnnCreateSeqDataDescriptor(&desc_), CUDNN_STATUS_SUCCESS); }
    void TearDown() override { EXPECT_EQ(cudnnDestroySeqDataDescriptor(desc_), CUDNN_STATUS_SUCCESS); }

    // dims indexed by axis: T=5, N=3, B=2, V=16; memory order N, B, T, V.
    cudnnStatus_t set_default(cudnnDataType_t type = CUDNN_DATA_FLOAT) {
        return cudnnSetSeqDataDescriptor(desc_, type, CUDNN_SEQDATA_DIM_COUNT, dims_, axes_, 6, lengths_, nullptr);
    }

    cudnnSeqDataDescriptor_t desc_ = nullptr;
    int dims_[CUDNN_SEQDATA_DIM_COUNT] = {5, 3, 2, 16};
    cudnnSeqDataAxis_t axes_[CUDNN_SEQDATA_DIM_COUNT] = {CUDNN_SEQDATA_BATCH_DIM, CUDNN_SEQDATA_BEAM_DIM,
                                                         CUDNN_SEQDATA_TIME_DIM, CUDNN_SEQDATA_VECT_DIM};
    int lengths_[8] = {5, 4, 0, 1, 2, 3, 0, 0};
};

}  // namespace

TEST(SeqDataDescriptorLifetime, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateSeqDataDescriptor(nullptr), "cudnnCreateSeqDataDescriptor",
                    "seqDataDesc is NULL");
    EXPECT_EQ(cudnnDestroySeqDataDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST_F(SeqDataDescriptor, RoundTripsRandomConfigurations) {
    const unsigned seed = 31337;
    std::mt19937 rng(seed);
    auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    const cudnnDataType_t types[] = {CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE};
    for (int round = 0; round < 200; ++round) {
        const cudnnDataType_t type = types[pick(0, 2)];
        int dims[CUDNN_SEQDATA_DIM_COUNT];
        dims[CUDNN_SEQDATA_TIME_DIM] = pick(1, 100);
        dims[CUDNN_SEQDATA_BATCH_DIM] = pick(1, 16);
        dims[CUDNN_SEQDATA_BEAM_DIM] = pick(1, 4);
        dims[CUDNN_SEQDATA_VECT_DIM] = pick(1, 1024);
        cudnnSeqDataAxis_t axes[CUDNN_SEQDATA_DIM_COUNT] = {CUDNN_SEQDATA_TIME_DIM, CUDNN_SEQDATA_BATCH_DIM,
                                                            CUDNN_SEQDATA_BEAM_DIM, CUDNN_SEQDATA_VECT_DIM};
        std::shuffle(axes, axes + CUDNN_SEQDATA_DIM_COUNT, rng);
        std::vector<int> lengths(static_cast<size_t>(dims[CUDNN_SEQDATA_BATCH_DIM] * dims[CUDNN_SEQDATA_BEAM_DIM]));
        for (int &length : lengths) length = pick(0, dims[CUDNN_SEQDATA_TIME_DIM]);
        std::string order;
        for (cudnnSeqDataAxis_t axis : axes) order += std::to_string(axis);
        SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + ": type " +
                     std::to_string(type) + " dims " + std::to_string(dims[0]) + "x" + std::to_string(dims[1]) + "x" +
                     std::to_string(dims[2]) + "x" + std::to_string(dims[3]) + " order " + order);
        ASSERT_EQ(cudnnSetSeqDataDescriptor(desc_, type, CUDNN_SEQDATA_DIM_COUNT, dims, axes, lengths.size(),
                                            lengths.data(), nullptr),
                  CUDNN_STATUS_SUCCESS);
        cudnnDataType_t out_type;
        int nb_dims = 0;
        int out_dims[CUDNN_SEQDATA_DIM_COUNT] = {};
        cudnnSeqDataAxis_t out_axes[CUDNN_SEQDATA_DIM_COUNT] = {};
        size_t out_size = 0;
        std::vector<int> out_lengths(lengths.size() + 2, -9);
        ASSERT_EQ(cudnnGetSeqDataDescriptor(desc_, &out_type, &nb_dims, CUDNN_SEQDATA_DIM_COUNT, out_dims, out_axes,
                                            &out_size, out_lengths.size(), out_lengths.data(), nullptr),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(out_type, type);
        EXPECT_EQ(nb_dims, CUDNN_SEQDATA_DIM_COUNT);
        for (int i = 0; i < CUDNN_SEQDATA_DIM_COUNT; ++i) {
            EXPECT_EQ(out_dims[i], dims[i]) << "dim " << i;
            EXPECT_EQ(out_axes[i], axes[i]) << "axis " << i;
        }
        EXPECT_EQ(out_size, lengths.size());
        EXPECT_EQ(std::vector<int>(out_lengths.begin(), out_lengths.begin() + static_cast<long>(lengths.size())),
                  lengths);
        EXPECT_EQ(out_lengths[lengths.size()], -9);
    }
}

TEST_F(SeqDataDescriptor, GetWritesOnlyWhatIsAskedFor) {
    ASSERT_EQ(set_default(), CUDNN_STATUS_SUCCESS);
    // Every output is optional.
    EXPECT_EQ(cudnnGetSeqDataDescriptor(desc_, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    // A positive request count with a NULL array is ignored.
    int nb_dims = 0;
    EXPECT_EQ(cudnnGetSeqDataDescriptor(desc_, nullptr, &nb_dims, 4, nullptr, nullptr, nullptr, 6, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(nb_dims, CUDNN_SEQDATA_DIM_COUNT);
    // Short arrays get their first values only.
    int dims[4] = {-1, -1, -1, -1};
    cudnnSeqDataAxis_t axes[4] = {CUDNN_SEQDATA_VECT_DIM, CUDNN_SEQDATA_VECT_DIM, CUDNN_SEQDATA_VECT_DIM,
                                  CUDNN_SEQDATA_VECT_DIM};
    int lengths[6] = {-1, -1, -1, -1, -1, -1};
    size_t size = 0;
    ASSERT_EQ(cudnnGetSeqDataDescriptor(desc_, nullptr, &nb_dims, 2, dims, axes, &size, 3, lengths, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dims[0], 5);
    EXPECT_EQ(dims[1], 3);
    EXPECT_EQ(dims[2], -1);
    EXPECT_EQ(axes[0], CUDNN_SEQDATA_BATCH_DIM);
    EXPECT_EQ(axes[1], CUDNN_SEQDATA_BEAM_DIM);
    EXPECT_EQ(axes[2], CUDNN_SEQDATA_VECT_DIM);
    EXPECT_EQ(size, 6u);
    EXPECT_EQ(lengths[2], 0);
    EXPECT_EQ(lengths[3], -1);
    // The fill value reported is zero (the setter accepts none).
    float fill = 3.0f;
    ASSERT_EQ(cudnnGetSeqDataDescriptor(desc_, nullptr, nullptr, 0, nullptr, nullptr, nullptr, 0, nullptr, &fill),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(fill, 0.0f);
}

TEST_F(SeqDataDescriptor, GetRejectsUnsetDescriptorNullAndNegativeRequest) {
    int nb_dims;
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetSeqDataDescriptor(desc_, nullptr, &nb_dims, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
        "cudnnGetSeqDataDescriptor", "seqDataDesc has not been set");
    ASSERT_EQ(set_default(), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetSeqDataDescriptor(desc_, nullptr, &nb_dims, -1, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
        "nbDimsRequested is -1");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnGetSeqDataDescriptor(nullptr, nullptr, &nb_dims, 0, nullptr, nullptr, nullptr, 0, nullptr, nullptr),
        "seqDataDesc is NULL");
}

TEST_F(SeqDataDescriptor, NbDimsMustBeFour) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 0, dims_, axes_, 6, lengths_, nullptr),
                    "cudnnSetSeqDataDescriptor", "nbDims is 0");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 3, dims_, axes_, 6, lengths_, nullptr),
                    "nbDims is 3", "only CUDNN_SEQDATA_DIM_COUNT (4)");
}

TEST_F(SeqDataDescriptor, RejectsNonPositiveDims) {
    dims_[CUDNN_SEQDATA_VECT_DIM] = 0;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(), "dimA[CUDNN_SEQDATA_VECT_DIM] is 0", "must be positive");
    dims_[CUDNN_SEQDATA_VECT_DIM] = 16;
    dims_[CUDNN_SEQDATA_BEAM_DIM] = -2;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(), "dimA[CUDNN_SEQDATA_BEAM_DIM] is -2");
}

TEST_F(SeqDataDescriptor, AxesMustBeAPermutation) {
    axes_[3] = CUDNN_SEQDATA_BATCH_DIM;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(), "axes[3] repeats CUDNN_SEQDATA_BATCH_DIM");
    axes_[3] = static_cast<cudnnSeqDataAxis_t>(4);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(), "axes[3] is 4", "not a cudnnSeqDataAxis_t");
}

TEST_F(SeqDataDescriptor, SeqLengthArraySizeMustBeBatchTimesBeam) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 4, dims_, axes_, 5, lengths_, nullptr),
                    "seqLengthArraySize is 5", "= 3 x 2 = 6");
}

TEST_F(SeqDataDescriptor, RejectsLengthsOutsideTheTimeDim) {
    lengths_[4] = 6;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(), "seqLengthArray[4] is 6",
                    "between 0 and dimA[CUDNN_SEQDATA_TIME_DIM] (5)");
    lengths_[4] = -1;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(), "seqLengthArray[4] is -1");
}

TEST_F(SeqDataDescriptor, RejectsNullArrays) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 4, nullptr, axes_, 6, lengths_, nullptr),
                    "dimA is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 4, dims_, nullptr, 6, lengths_, nullptr),
                    "axes is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 4, dims_, axes_, 6, nullptr, nullptr),
                    "seqLengthArray is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetSeqDataDescriptor(nullptr, CUDNN_DATA_FLOAT, 4, dims_, axes_, 6, lengths_, nullptr),
                    "seqDataDesc is NULL");
}

TEST_F(SeqDataDescriptor, PaddingFillIsNotSupported) {
    float fill = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetSeqDataDescriptor(desc_, CUDNN_DATA_FLOAT, 4, dims_, axes_, 6, lengths_, &fill),
                    "paddingFill is not NULL");
}

TEST_F(SeqDataDescriptor, DataTypeMustBeHalfFloatOrDouble) {
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, set_default(CUDNN_DATA_INT32), "dataType is CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set_default(static_cast<cudnnDataType_t>(99)), "dataType is 99",
                    "not a cudnnDataType_t");
}

TEST_F(SeqDataDescriptor, FailedSetLeavesDescriptorUnchanged) {
    ASSERT_EQ(set_default(CUDNN_DATA_DOUBLE), CUDNN_STATUS_SUCCESS);
    lengths_[0] = 100;
    EXPECT_EQ(set_default(CUDNN_DATA_HALF), CUDNN_STATUS_BAD_PARAM);
    cudnnDataType_t type;
    int first_length = 0;
    ASSERT_EQ(cudnnGetSeqDataDescriptor(desc_, &type, nullptr, 0, nullptr, nullptr, nullptr, 1, &first_length, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(type, CUDNN_DATA_DOUBLE);
    EXPECT_EQ(first_length, 5);
}
