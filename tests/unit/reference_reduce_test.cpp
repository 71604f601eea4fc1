// The reference reduction on hand-computed values.
#include "reference/reduce.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

using namespace librednn;

// Reduces a 1x2x1x3 float tensor over W with `op`; returns the two results (and their indices).
std::vector<float> reduce_rows(cudnnReduceTensorOp_t op, const std::vector<float> &a, std::vector<uint32_t> *indices,
                               cudnnNanPropagation_t nan = CUDNN_NOT_PROPAGATE_NAN) {
    const int64_t a_dims[] = {1, 2, 1, 3}, c_dims[] = {1, 2, 1, 1};
    ReduceProblem p;
    p.op = op;
    p.nan_opt = nan;
    p.indices = indices != nullptr;
    p.a = packed_geometry(CUDNN_DATA_FLOAT, 4, a_dims, PackedLayout::nchw);
    p.c = packed_geometry(CUDNN_DATA_FLOAT, 4, c_dims, PackedLayout::nchw);
    std::vector<float> c(2, NAN);
    ReduceBuffers b;
    b.a = a.data();
    b.c = c.data();
    b.indices = indices ? indices->data() : nullptr;
    reference::reduce(p, b);
    return c;
}

TEST(ReferenceReduce, EveryOpOnTwoRows) {
    const std::vector<float> a = {1, -2, 3, 0, 4, -5};
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_ADD, a, nullptr), (std::vector<float>{2, -1}));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_MUL, a, nullptr), (std::vector<float>{-6, 0}));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS, a, nullptr), (std::vector<float>{-6, -20}));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_MIN, a, nullptr), (std::vector<float>{-2, -5}));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_MAX, a, nullptr), (std::vector<float>{3, 4}));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_AMAX, a, nullptr), (std::vector<float>{3, 5}));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_NORM1, a, nullptr), (std::vector<float>{6, 9}));
    const std::vector<float> avg = reduce_rows(CUDNN_REDUCE_TENSOR_AVG, a, nullptr);
    EXPECT_FLOAT_EQ(avg[0], 2.0f / 3.0f);
    EXPECT_FLOAT_EQ(avg[1], -1.0f / 3.0f);
    const std::vector<float> norm2 = reduce_rows(CUDNN_REDUCE_TENSOR_NORM2, a, nullptr);
    EXPECT_FLOAT_EQ(norm2[0], std::sqrt(14.0f));
    EXPECT_FLOAT_EQ(norm2[1], std::sqrt(41.0f));
    EXPECT_EQ(reduce_rows(CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS, {0, 0, 0, 0, 0, 2}, nullptr), (std::vector<float>{1, 2}));
}

TEST(ReferenceReduce, IndicesAreFlatPositionsFirstOnTies) {
    std::vector<uint32_t> indices(2, 99);
    reduce_rows(CUDNN_REDUCE_TENSOR_MAX, {7, 1, 7, -1, -1, -3}, &indices);
    EXPECT_EQ(indices, (std::vector<uint32_t>{0, 0}));
    reduce_rows(CUDNN_REDUCE_TENSOR_MIN, {7, 1, 7, -1, -1, -3}, &indices);
    EXPECT_EQ(indices, (std::vector<uint32_t>{1, 2}));
    reduce_rows(CUDNN_REDUCE_TENSOR_AMAX, {7, 1, -8, -1, 1, -1}, &indices);
    EXPECT_EQ(indices, (std::vector<uint32_t>{2, 0}));
}

TEST(ReferenceReduce, NanOptionOfMinAndMax) {
    const float nan = NAN;
    std::vector<uint32_t> indices(2, 99);
    std::vector<float> c = reduce_rows(CUDNN_REDUCE_TENSOR_MAX, {1, nan, 3, nan, nan, nan}, &indices);
    EXPECT_EQ(c[0], 3.0f);
    EXPECT_TRUE(std::isnan(c[1]));
    EXPECT_EQ(indices, (std::vector<uint32_t>{2, 0}));
    c = reduce_rows(CUDNN_REDUCE_TENSOR_MAX, {1, nan, 3, 2, 5, nan}, &indices, CUDNN_PROPAGATE_NAN);
    EXPECT_TRUE(std::isnan(c[0]));
    EXPECT_TRUE(std::isnan(c[1]));
    EXPECT_EQ(indices, (std::vector<uint32_t>{1, 2}));
}

}  // namespace
