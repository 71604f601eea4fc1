// cudnnCreate/Set/Get/DestroyOpTensorDescriptor through the public API.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <random>
#include <string>

namespace {

struct OpTensorDesc {
    cudnnOpTensorDescriptor_t desc = nullptr;
    OpTensorDesc() { EXPECT_EQ(cudnnCreateOpTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~OpTensorDesc() { EXPECT_EQ(cudnnDestroyOpTensorDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

}  // namespace

TEST(OpTensorDescriptor, SetThenGetRoundTripsRandomConfigurations) {
    const unsigned seed = 20240611;
    std::mt19937 rng(seed);
    OpTensorDesc d;
    for (int trial = 0; trial < 50; ++trial) {
        const auto op = static_cast<cudnnOpTensorOp_t>(rng() % 6);
        const auto type = static_cast<cudnnDataType_t>(rng() % 15);
        const auto nan = static_cast<cudnnNanPropagation_t>(rng() % 2);
        SCOPED_TRACE("seed " + std::to_string(seed) + " trial " + std::to_string(trial) + ": op " + std::to_string(op) +
                     " type " + std::to_string(type) + " nan " + std::to_string(nan));
        ASSERT_EQ(cudnnSetOpTensorDescriptor(d.desc, op, type, nan), CUDNN_STATUS_SUCCESS);
        cudnnOpTensorOp_t op_out;
        cudnnDataType_t type_out;
        cudnnNanPropagation_t nan_out;
        ASSERT_EQ(cudnnGetOpTensorDescriptor(d.desc, &op_out, &type_out, &nan_out), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(op_out, op);
        EXPECT_EQ(type_out, type);
        EXPECT_EQ(nan_out, nan);
    }
}

TEST(OpTensorDescriptor, GetBeforeSetIsRejected) {
    OpTensorDesc d;
    cudnnOpTensorOp_t op;
    cudnnDataType_t type;
    cudnnNanPropagation_t nan;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetOpTensorDescriptor(d.desc, &op, &type, &nan),
                    "cudnnGetOpTensorDescriptor", "opTensorDesc has not been set");
}

TEST(OpTensorDescriptor, RejectsValuesOutsideTheirEnums) {
    OpTensorDesc d;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetOpTensorDescriptor(d.desc, static_cast<cudnnOpTensorOp_t>(6), CUDNN_DATA_FLOAT,
                                               CUDNN_NOT_PROPAGATE_NAN),
                    "opTensorOp is 6", "cudnnOpTensorOp_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetOpTensorDescriptor(d.desc, static_cast<cudnnOpTensorOp_t>(-1), CUDNN_DATA_FLOAT,
                                               CUDNN_NOT_PROPAGATE_NAN),
                    "opTensorOp is -1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetOpTensorDescriptor(d.desc, CUDNN_OP_TENSOR_ADD, static_cast<cudnnDataType_t>(15),
                                               CUDNN_NOT_PROPAGATE_NAN),
                    "opTensorCompType is 15", "cudnnDataType_t");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetOpTensorDescriptor(d.desc, CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT,
                                               static_cast<cudnnNanPropagation_t>(2)),
                    "opTensorNanOpt is 2", "cudnnNanPropagation_t");
}

TEST(OpTensorDescriptor, FailedSetKeepsThePreviousValues) {
    OpTensorDesc d;
    ASSERT_EQ(cudnnSetOpTensorDescriptor(d.desc, CUDNN_OP_TENSOR_MAX, CUDNN_DATA_DOUBLE, CUDNN_PROPAGATE_NAN),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetOpTensorDescriptor(d.desc, CUDNN_OP_TENSOR_MIN, CUDNN_DATA_FLOAT,
                                         static_cast<cudnnNanPropagation_t>(7)),
              CUDNN_STATUS_BAD_PARAM);
    cudnnOpTensorOp_t op;
    cudnnDataType_t type;
    cudnnNanPropagation_t nan;
    ASSERT_EQ(cudnnGetOpTensorDescriptor(d.desc, &op, &type, &nan), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(op, CUDNN_OP_TENSOR_MAX);
    EXPECT_EQ(type, CUDNN_DATA_DOUBLE);
    EXPECT_EQ(nan, CUDNN_PROPAGATE_NAN);
}

TEST(OpTensorDescriptor, RejectsNullPointers) {
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateOpTensorDescriptor(nullptr), "cudnnCreateOpTensorDescriptor",
                    "opTensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetOpTensorDescriptor(nullptr, CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN),
                    "opTensorDesc is NULL");
    OpTensorDesc d;
    ASSERT_EQ(cudnnSetOpTensorDescriptor(d.desc, CUDNN_OP_TENSOR_ADD, CUDNN_DATA_FLOAT, CUDNN_NOT_PROPAGATE_NAN),
              CUDNN_STATUS_SUCCESS);
    cudnnOpTensorOp_t op;
    cudnnDataType_t type;
    cudnnNanPropagation_t nan;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetOpTensorDescriptor(nullptr, &op, &type, &nan),
                    "opTensorDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetOpTensorDescriptor(d.desc, nullptr, &type, &nan),
                    "opTensorOp is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetOpTensorDescriptor(d.desc, &op, nullptr, &nan),
                    "opTensorCompType is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetOpTensorDescriptor(d.desc, &op, &type, nullptr),
                    "opTensorNanOpt is NULL");
}

TEST(OpTensorDescriptor, DestroyingNullIsANoOp) {
    EXPECT_EQ(cudnnDestroyOpTensorDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}
