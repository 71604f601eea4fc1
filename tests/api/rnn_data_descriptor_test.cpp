// The RNN data descriptor through the public API: set/get round trips, the padding fill value and each
// documented rejection.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

class RNNDataDescriptor : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(cudnnCreateRNNDataDescriptor(&desc_), CUDNN_STATUS_SUCCESS); }
    void TearDown() override { EXPECT_EQ(cudnnDestroyRNNDataDescriptor(desc_), CUDNN_STATUS_SUCCESS); }

    cudnnRNNDataDescriptor_t desc_ = nullptr;
};

size_t type_size(cudnnDataType_t type) { return type == CUDNN_DATA_HALF ? 2 : type == CUDNN_DATA_FLOAT ? 4 : 8; }

}  // namespace

TEST(RNNDataDescriptorLifetime, CreateRejectsNullAndDestroyAcceptsNull) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateRNNDataDescriptor(nullptr), "cudnnCreateRNNDataDescriptor",
                    "rnnDataDesc is NULL");
    EXPECT_EQ(cudnnDestroyRNNDataDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDataDescriptor, RoundTripsRandomConfigurations) {
    const unsigned seed = 4242;
    std::mt19937 rng(seed);
    auto pick = [&](int low, int high) { return std::uniform_int_distribution<int>(low, high)(rng); };
    const cudnnDataType_t types[] = {CUDNN_DATA_HALF, CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE};
    for (int round = 0; round < 200; ++round) {
        const cudnnDataType_t type = types[pick(0, 2)];
        const auto layout = static_cast<cudnnRNNDataLayout_t>(pick(0, 2));
        const int max_len = pick(1, 200), batch = pick(1, 64), vector = pick(1, 4096);
        std::vector<int> lengths(batch);
        for (int &length : lengths) length = pick(0, max_len);
        if (layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED)
            std::sort(lengths.begin(), lengths.end(), std::greater<int>());
        unsigned char fill[8];
        for (unsigned char &byte : fill) byte = static_cast<unsigned char>(pick(0, 255));
        const bool with_fill = pick(0, 1);
        SCOPED_TRACE("seed " + std::to_string(seed) + " round " + std::to_string(round) + ": type " +
                     std::to_string(type) + " layout " + std::to_string(layout) + " T=" + std::to_string(max_len) +
                     " N=" + std::to_string(batch) + " C=" + std::to_string(vector));
        ASSERT_EQ(cudnnSetRNNDataDescriptor(desc_, type, layout, max_len, batch, vector, lengths.data(),
                                            with_fill ? fill : nullptr),
                  CUDNN_STATUS_SUCCESS);
        cudnnDataType_t out_type;
        cudnnRNNDataLayout_t out_layout;
        int out_max = 0, out_batch = 0, out_vector = 0;
        std::vector<int> out_lengths(batch + 3, -7);
        unsigned char out_fill[8];
        std::memset(out_fill, 0xAB, sizeof out_fill);
        ASSERT_EQ(cudnnGetRNNDataDescriptor(desc_, &out_type, &out_layout, &out_max, &out_batch, &out_vector, batch + 3,
                                            out_lengths.data(), out_fill),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(out_type, type);
        EXPECT_EQ(out_layout, layout);
        EXPECT_EQ(out_max, max_len);
        EXPECT_EQ(out_batch, batch);
        EXPECT_EQ(out_vector, vector);
        EXPECT_EQ(std::vector<int>(out_lengths.begin(), out_lengths.begin() + batch), lengths);
        EXPECT_EQ(out_lengths[batch], -7);  // nothing written past batchSize values
        const size_t bytes = type_size(type);
        for (size_t i = 0; i < bytes; ++i) EXPECT_EQ(out_fill[i], with_fill ? fill[i] : 0) << "fill byte " << i;
        for (size_t i = bytes; i < 8; ++i) EXPECT_EQ(out_fill[i], 0xAB) << "byte " << i << " is past one value";
    }
}

TEST_F(RNNDataDescriptor, PaddingFillIsReadAsTheDataType) {
    const int lengths[] = {3, 1};
    const double fill_double = -1.25;
    ASSERT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_DOUBLE, CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED, 3, 2, 8,
                                        lengths, const_cast<double *>(&fill_double)),
              CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    cudnnRNNDataLayout_t layout;
    int max_len, batch, vector, out_lengths[2];
    double got_double = 0;
    ASSERT_EQ(cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 2, out_lengths, &got_double),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(got_double, -1.25);

    float fill_float = 7.5f;
    ASSERT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 3, 2, 8,
                                        lengths, &fill_float),
              CUDNN_STATUS_SUCCESS);
    float got_float = 0;
    ASSERT_EQ(cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 2, out_lengths, &got_float),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(got_float, 7.5f);

    uint16_t fill_half = 0x3C00;  // 1.0 in IEEE half
    ASSERT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_HALF, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 3, 2, 8,
                                        lengths, &fill_half),
              CUDNN_STATUS_SUCCESS);
    uint16_t got_half[2] = {0, 0x5555};
    ASSERT_EQ(cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 2, out_lengths, got_half),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(got_half[0], 0x3C00);
    EXPECT_EQ(got_half[1], 0x5555);  // exactly one half value written
}

TEST_F(RNNDataDescriptor, GetCopiesAtMostArrayLengthRequested) {
    const int lengths[] = {5, 4, 3, 2};
    ASSERT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED, 5, 4, 16,
                                        lengths, nullptr),
              CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    cudnnRNNDataLayout_t layout;
    int max_len, batch, vector;
    int out[4] = {-1, -1, -1, -1};
    ASSERT_EQ(cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 2, out, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(out[0], 5);
    EXPECT_EQ(out[1], 4);
    EXPECT_EQ(out[2], -1);
    EXPECT_EQ(batch, 4);
    ASSERT_EQ(cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 0, out, nullptr),
              CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDataDescriptor, AcceptsZeroLengthSequences) {
    const int lengths[] = {0, 4, 0};
    EXPECT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 4, 3, 2,
                                        lengths, nullptr),
              CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDataDescriptor, GetBeforeSetIsRejected) {
    cudnnDataType_t type;
    cudnnRNNDataLayout_t layout;
    int max_len, batch, vector, out[1];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 1, out, nullptr),
                    "cudnnGetRNNDataDescriptor", "rnnDataDesc has not been set");
}

TEST_F(RNNDataDescriptor, RejectsNonPositiveSizes) {
    const int lengths[] = {1, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 0, 2,
                                              4, lengths, nullptr),
                    "cudnnSetRNNDataDescriptor", "maxSeqLength is 0", "must be positive");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 2, -1,
                                              4, lengths, nullptr),
                    "batchSize is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 2, 2,
                                              0, lengths, nullptr),
                    "vectorSize is 0");
}

TEST_F(RNNDataDescriptor, RejectsSequenceLengthsOutsideZeroToMax) {
    const int too_long[] = {3, 5};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 4, 2,
                                              8, too_long, nullptr),
                    "seqLengthArray[1] is 5", "between 0 and maxSeqLength (4)");
    const int negative[] = {-1, 2};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 4, 2,
                                              8, negative, nullptr),
                    "seqLengthArray[0] is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 4, 2,
                                              8, nullptr, nullptr),
                    "seqLengthArray is NULL");
}

TEST_F(RNNDataDescriptor, PackedLayoutNeedsDescendingLengths) {
    const int ascending[] = {2, 3, 1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED, 3, 3, 8,
                                              ascending, nullptr),
                    "seqLengthArray[1] is 3", "descending order");
    // The unpacked layouts take lengths in any order.
    EXPECT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_BATCH_MAJOR_UNPACKED, 3, 3, 8,
                                        ascending, nullptr),
              CUDNN_STATUS_SUCCESS);
}

TEST_F(RNNDataDescriptor, RejectsInvalidLayoutAndUnsupportedDataType) {
    const int lengths[] = {1};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, static_cast<cudnnRNNDataLayout_t>(3), 1, 1, 1,
                                              lengths, nullptr),
                    "layout is 3", "not a cudnnRNNDataLayout_t");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_INT8, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 1, 1, 1,
                                              lengths, nullptr),
                    "dataType is CUDNN_DATA_INT8", "CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetRNNDataDescriptor(nullptr, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 1, 1,
                                              1, lengths, nullptr),
                    "rnnDataDesc is NULL");
}

TEST_F(RNNDataDescriptor, GetRejectsNullOutputsAndNegativeLength) {
    const int lengths[] = {1};
    ASSERT_EQ(cudnnSetRNNDataDescriptor(desc_, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, 1, 1, 1,
                                        lengths, nullptr),
              CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    cudnnRNNDataLayout_t layout;
    int max_len, batch, vector, out[1];
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDataDescriptor(desc_, nullptr, &layout, &max_len, &batch, &vector, 1, out, nullptr),
                    "cudnnGetRNNDataDescriptor", "dataType is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, nullptr, &vector, 1, out, nullptr),
                    "batchSize is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, 1, nullptr, nullptr),
                    "seqLengthArray is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDataDescriptor(desc_, &type, &layout, &max_len, &batch, &vector, -1, out, nullptr),
                    "arrayLengthRequested is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetRNNDataDescriptor(nullptr, &type, &layout, &max_len, &batch, &vector, 1, out, nullptr),
                    "rnnDataDesc is NULL");
}
