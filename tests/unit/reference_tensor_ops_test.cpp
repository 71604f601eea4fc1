// The reference tensor operations (add, op, set, scale) on hand-computed values.
#include "reference/tensor_ops.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using namespace librednn;

TensorGeometry floats(std::vector<int64_t> dims) {
    return packed_geometry(CUDNN_DATA_FLOAT, static_cast<int>(dims.size()), dims.data(), PackedLayout::nchw);
}

TEST(ReferenceTensorOps, AddTensorBroadcastsABiasOverChannels) {
    AddTensorProblem p;
    p.a = floats({1, 2, 1, 1});
    p.c = floats({1, 2, 1, 2});
    p.alpha = 2.0;
    p.beta = 1.0;
    std::vector<float> a = {10, 20}, c = {1, 2, 3, 4};
    reference::add_tensor(p, {a.data(), c.data()});
    EXPECT_EQ(c, (std::vector<float>{21, 22, 43, 44}));
}

TEST(ReferenceTensorOps, OpTensorOpsAndNanOption) {
    const double nan = std::nan("");
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_ADD, CUDNN_NOT_PROPAGATE_NAN, 2, 3), 5);
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_MUL, CUDNN_NOT_PROPAGATE_NAN, 2, 3), 6);
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_MIN, CUDNN_NOT_PROPAGATE_NAN, 2, 3), 2);
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 3), 3);
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_SQRT, CUDNN_NOT_PROPAGATE_NAN, 9, 100), 3);
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_NOT, CUDNN_NOT_PROPAGATE_NAN, 1, 100), 0);
    EXPECT_EQ(reference::op_tensor_value(CUDNN_OP_TENSOR_MAX, CUDNN_NOT_PROPAGATE_NAN, nan, 3), 3);
    EXPECT_TRUE(std::isnan(reference::op_tensor_value(CUDNN_OP_TENSOR_MAX, CUDNN_PROPAGATE_NAN, nan, 3)));
    EXPECT_TRUE(std::isnan(reference::op_tensor_value(CUDNN_OP_TENSOR_MIN, CUDNN_PROPAGATE_NAN, 3, nan)));
}

TEST(ReferenceTensorOps, OpTensorScalesItsInputsAndBroadcastsB) {
    OpTensorProblem p;
    p.op = CUDNN_OP_TENSOR_MUL;
    p.a = p.c = floats({1, 1, 2, 2});
    p.b = floats({1, 1, 1, 2});
    p.alpha1 = 2.0;
    p.alpha2 = 3.0;
    std::vector<float> a = {1, 2, 3, 4}, b = {1, -1}, c = {NAN, NAN, NAN, NAN};
    reference::op_tensor(p, {a.data(), b.data(), c.data()});
    EXPECT_EQ(c, (std::vector<float>{6, -12, 18, -24}));
}

TEST(ReferenceTensorOps, SetAndScaleIntoIntegersRoundToEvenAndSaturate) {
    const int64_t dims[] = {1, 1, 1, 4};
    SetTensorProblem p;
    p.kind = SetTensorProblem::Kind::scale;
    p.y = packed_geometry(CUDNN_DATA_INT8, 4, dims, PackedLayout::nchw);
    p.value = 2.5;
    std::vector<int8_t> y = {1, 3, 100, -100};
    reference::set_tensor(p, {y.data()});
    EXPECT_EQ(y, (std::vector<int8_t>{2, 8, 127, -128}));  // 2.5 rounds to even 2, 7.5 to 8
    p.kind = SetTensorProblem::Kind::set;
    p.value = -7;
    reference::set_tensor(p, {y.data()});
    EXPECT_EQ(y, (std::vector<int8_t>{-7, -7, -7, -7}));
}

}  // namespace
