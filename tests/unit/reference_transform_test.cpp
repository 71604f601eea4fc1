// The reference transform on hand-computed layouts, padding and folding.
#include "reference/transform.hpp"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

namespace {

using namespace librednn;

TEST(ReferenceTransform, NchwToNhwcPermutesElements) {
    const int64_t dims[] = {1, 2, 1, 3};
    TransformProblem p;
    p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nhwc);
    std::vector<float> x = {0, 1, 2, 10, 11, 12}, y(6, -1.0f);
    reference::transform(p, {x.data(), y.data()});
    EXPECT_EQ(y, (std::vector<float>{0, 10, 1, 11, 2, 12}));
}

TEST(ReferenceTransform, Int8ToInt8x4PacksFourChannelsPerVector) {
    const int64_t dims[] = {1, 4, 1, 2};
    TransformProblem p;
    p.x = packed_geometry(CUDNN_DATA_INT8, 4, dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_INT8x4, 4, dims, PackedLayout::nchw_vect_c);
    std::vector<int8_t> x = {0, 1, 10, 11, 20, 21, 30, 31}, y(8, -1);
    reference::transform(p, {x.data(), y.data()});
    EXPECT_EQ(y, (std::vector<int8_t>{0, 10, 20, 30, 1, 11, 21, 31}));
}

TEST(ReferenceTransform, PaddingSurroundsWithZerosAndNegativePaddingCrops) {
    const int64_t dims[] = {1, 1, 2, 2}, padded[] = {1, 1, 3, 2};
    TransformProblem p;
    p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, padded, PackedLayout::nchw);
    p.pad_before[2] = 1;   // a zero row above
    p.pad_before[3] = -1;  // the first column cropped ...
    p.pad_after[3] = 1;    // ... and a zero column after
    std::vector<float> x = {1, 2, 3, 4}, y(6, -1.0f);
    reference::transform(p, {x.data(), y.data()});
    EXPECT_EQ(y, (std::vector<float>{0, 0, 2, 0, 4, 0}));
}

TEST(ReferenceTransform, FoldMovesEachBlockPositionToItsChannelGroup) {
    // 1x2x2x2 folded 2x2: channel k * 2 + c holds channel c at block position k (row-major).
    const int64_t dims[] = {1, 2, 2, 2}, folded[] = {1, 8, 1, 1};
    TransformProblem p;
    p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, folded, PackedLayout::nchw);
    p.fold[0] = p.fold[1] = 2;
    std::vector<float> x = {0, 1, 2, 3, 10, 11, 12, 13}, y(8, -1.0f);
    reference::transform(p, {x.data(), y.data()});
    EXPECT_EQ(y, (std::vector<float>{0, 10, 1, 11, 2, 12, 3, 13}));

    // Unfolding gives x back.
    TransformProblem back;
    back.x = p.y;
    back.y = p.x;
    back.fold[0] = back.fold[1] = 2;
    back.unfold = true;
    std::vector<float> z(8, -1.0f);
    reference::transform(back, {y.data(), z.data()});
    EXPECT_EQ(z, x);
}

TEST(ReferenceTransform, FoldRoundsUpWithZeros) {
    // W = 3 folded by 2: two output columns, the second half empty.
    const int64_t dims[] = {1, 1, 1, 3}, folded[] = {1, 2, 1, 2};
    TransformProblem p;
    p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, folded, PackedLayout::nchw);
    p.fold[0] = 1;
    p.fold[1] = 2;
    std::vector<float> x = {5, 6, 7}, y(4, -1.0f);
    reference::transform(p, {x.data(), y.data()});
    EXPECT_EQ(y, (std::vector<float>{5, 7, 6, 0}));
}

}  // namespace
