// cudnnCreate/Set/Get/DestroyReduceTensorDescriptor through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>

namespace {

struct ReduceDesc {
    cudnnReduceTensorDescriptor_t desc = nullptr;
    ReduceDesc() { EXPECT_EQ(cudnnCreateReduceTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~ReduceDesc() { EXPECT_EQ(cudnnDestroyReduceTensorDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

struct ReduceConfig {
    cudnnReduceTensorOp_t op;
    cudnnDataType_t type;
    cudnnNanPropagation_t nan;
    cudnnReduceTensorIndices_t indices;
    cudnnIndicesType_t indices_type;
};

ReduceConfig get(cudnnReduceTensorDescriptor_t desc) {
    ReduceConfig c{};
    EXPECT_EQ(cudnnGetReduceTensorDescriptor(desc, &c.op, &c.type, &c.nan, &c.indices, &c.indices_type),
              CUDNN_STATUS_SUCCESS);
    return c;
}

cudnnStatus_t set(cudnnReduceTensorDescriptor_t desc, const ReduceConfig &c) {
    return cudnnSetReduceTensorDescriptor(desc, c.op, c.type, c.nan, c.indices, c.indices_type);
}

const ReduceConfig kValid{CUDNN_REDUCE_TENSOR_MAX, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN,
                          CUDNN_REDUCE_TENSOR_FLATTENED_INDICES, CUDNN_32BIT_INDICES};

}  // namespace

TEST(ReduceTensorDescriptor, SetThenGetRoundTripsRandomConfigurations) {
    const unsigned seed = 20240612;
    std::mt19937 rng(seed);
    ReduceDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const ReduceConfig c{static_cast<cudnnReduceTensorOp_t>(rng() % 9), static_cast<cudnnDataType_t>(rng() % 15),
                             static_cast<cudnnNanPropagation_t>(rng() % 2),
                             static_cast<cudnnReduceTensorIndices_t>(rng() % 2),
                             static_cast<cudnnIndicesType_t>(rng() % 4)};
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": op " +
                     std::to_string(c.op) + " type " + std::to_string(c.type) + " nan " + std::to_string(c.nan) +
                     " indices " + std::to_string(c.indices) + " indices type " + std::to_string(c.indices_type));
        ASSERT_EQ(set(d.desc, c), CUDNN_STATUS_SUCCESS);
        const ReduceConfig out = get(d.desc);
        EXPECT_EQ(out.op, c.op);
        EXPECT_EQ(out.type, c.type);
        EXPECT_EQ(out.nan, c.nan);
        EXPECT_EQ(out.indices, c.indices);
        EXPECT_EQ(out.indices_type, c.indices_type);
    }
}

TEST(ReduceTensorDescriptor, AcceptsIndicesWithOpsThatIgnoreThem) {
    // cuDNN ignores the indices space for ops other than MIN and MAX, so asking for them is no error.
    ReduceDesc d;
    ReduceConfig c = kValid;
    c.op = CUDNN_REDUCE_TENSOR_ADD;
    EXPECT_EQ(set(d.desc, c), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(get(d.desc).indices, CUDNN_REDUCE_TENSOR_FLATTENED_INDICES);
}

TEST(ReduceTensorDescriptor, GetBeforeSetIsRejected) {
    ReduceDesc d;
    ReduceConfig c{};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(d.desc, &c.op, &c.type, &c.nan, &c.indices, &c.indices_type),
                    "cudnnGetReduceTensorDescriptor", "reduceTensorDesc has not been set");
}

TEST(ReduceTensorDescriptor, RejectsValuesOutsideTheirEnums) {
    ReduceDesc d;
    ReduceConfig c = kValid;
    c.op = static_cast<cudnnReduceTensorOp_t>(9);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(d.desc, c), "reduceTensorOp is 9", "cudnnReduceTensorOp_t");
    c = kValid;
    c.type = static_cast<cudnnDataType_t>(-3);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(d.desc, c), "reduceTensorCompType is -3", "cudnnDataType_t");
    c = kValid;
    c.nan = static_cast<cudnnNanPropagation_t>(2);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(d.desc, c), "reduceTensorNanOpt is 2", "cudnnNanPropagation_t");
    c = kValid;
    c.indices = static_cast<cudnnReduceTensorIndices_t>(2);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(d.desc, c), "reduceTensorIndices is 2", "cudnnReduceTensorIndices_t");
    c = kValid;
    c.indices_type = static_cast<cudnnIndicesType_t>(4);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(d.desc, c), "reduceTensorIndicesType is 4", "cudnnIndicesType_t");
}

TEST(ReduceTensorDescriptor, FailedSetKeepsThePreviousValues) {
    ReduceDesc d;
    ASSERT_EQ(set(d.desc, kValid), CUDNN_STATUS_SUCCESS);
    ReduceConfig bad = kValid;
    bad.op = CUDNN_REDUCE_TENSOR_NORM2;
    bad.indices_type = static_cast<cudnnIndicesType_t>(9);
    EXPECT_EQ(set(d.desc, bad), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(get(d.desc).op, CUDNN_REDUCE_TENSOR_MAX);
}

TEST(ReduceTensorDescriptor, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateReduceTensorDescriptor(nullptr), "reduceTensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, set(nullptr, kValid), "cudnnSetReduceTensorDescriptor",
                    "reduceTensorDesc is NULL");
    ReduceDesc d;
    ASSERT_EQ(set(d.desc, kValid), CUDNN_STATUS_SUCCESS);
    ReduceConfig c{};
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(nullptr, &c.op, &c.type, &c.nan, &c.indices, &c.indices_type),
                    "reduceTensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(d.desc, nullptr, &c.type, &c.nan, &c.indices, &c.indices_type),
                    "reduceTensorOp is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(d.desc, &c.op, nullptr, &c.nan, &c.indices, &c.indices_type),
                    "reduceTensorCompType is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(d.desc, &c.op, &c.type, nullptr, &c.indices, &c.indices_type),
                    "reduceTensorNanOpt is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(d.desc, &c.op, &c.type, &c.nan, nullptr, &c.indices_type),
                    "reduceTensorIndices is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetReduceTensorDescriptor(d.desc, &c.op, &c.type, &c.nan, &c.indices, nullptr),
                    "reduceTensorIndicesType is NULL");
}

TEST(ReduceTensorDescriptor, DestroyingNullIsANoOp) {
    EXPECT_EQ(cudnnDestroyReduceTensorDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}
