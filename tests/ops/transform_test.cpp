// cudnnTransformTensor, cudnnTransformTensorEx and cudnnTransformFilter against the reference, the
// fold/unfold round trip, and their rejections.
#include "reference/transform.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/transform/validate.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

namespace {

using namespace librednn;
using namespace librednn::test;

struct TypePair {
    cudnnDataType_t x, y;
};
const std::vector<TypePair> kTensorPairs = {
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT},    {CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE},
    {CUDNN_DATA_HALF, CUDNN_DATA_HALF},      {CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16},
    {CUDNN_DATA_INT8, CUDNN_DATA_INT8},      {CUDNN_DATA_UINT8, CUDNN_DATA_UINT8},
    {CUDNN_DATA_INT32, CUDNN_DATA_INT32},    {CUDNN_DATA_INT8, CUDNN_DATA_INT8x4},
    {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8},    {CUDNN_DATA_INT8, CUDNN_DATA_INT8x32},
    {CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x4}, {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x32},
    {CUDNN_DATA_UINT8, CUDNN_DATA_UINT8x4},  {CUDNN_DATA_UINT8x4, CUDNN_DATA_UINT8},
};

double low_of(cudnnDataType_t type) { return scalar_type_of(type) == CUDNN_DATA_UINT8 ? 0.0 : -100.0; }

// Runs `p` through `api` (which calls the library on device buffers of x and y) and the reference.
template <class Api>
void check_against_reference(Random &rng, const TransformProblem &p, Api &&api) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    HostTensor x(p.x), y(p.y);
    fill_uniform(x, rng, low_of(p.x.dtype), 100.0);
    if (p.beta == 0.0) {
        poison(y);
    } else {
        fill_uniform(y, rng, low_of(p.y.dtype), 100.0);
    }
    HostTensor ref = y;
    reference::transform(p, {x.data(), ref.data()});
    DeviceBuffer x_buffer(x.bytes);
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE && p.y.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    auto run = [&](const std::vector<uint8_t> &initial) {
        DeviceBuffer y_buffer(initial);
        EXPECT_EQ(api(alpha.get(), x_buffer.get(), beta.get(), y_buffer.get()), CUDNN_STATUS_SUCCESS);
        return y_buffer.download();
    };
    HostTensor result(p.y);
    result.bytes = p.beta == 0.0 ? run_poisoned(y, run) : run(y.bytes);

    // One element-wise step (a conversion, or a blend of alpha T(x) and beta y); the exact values come
    // from the reference run in double, blended and not.
    HostTensor exact = widened(y), moved = widened(y);
    TransformProblem wide = p;
    wide.y = exact.geometry;
    reference::transform(wide, {x.data(), exact.data()});
    wide.alpha = 1.0;
    wide.beta = 0.0;
    reference::transform(wide, {x.data(), moved.data()});
    const double eps = tolerance_for(p.y.dtype).compute_eps;
    std::vector<ElementBound> bounds;
    int64_t index[kMaxDims] = {};
    do {
        const double old = p.beta == 0.0 ? 0.0 : std::fabs(p.beta * y.at(index));
        bounds.push_back(ElementBound{eps * (std::fabs(p.alpha * moved.at(index)) + old), exact.at(index)});
    } while (next_index(index, p.y.dims, p.y.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));
}

TEST(TransformTensor, MatchesReferenceBetweenRandomLayoutsAndVectorWidths) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 200; ++trial) {
        const TypePair types = rng.pick(kTensorPairs);
        const int lanes = std::max(vector_count(types.x), vector_count(types.y));
        auto dims = random_dims(rng, static_cast<int>(rng.integer(3, 5)), 6, lanes);
        if (lanes == 32) dims[1] = 32 * rng.integer(1, 2);
        TransformProblem p;
        p.x = make_geometry(rng, types.x, dims, rng.pick(all_layout_kinds()));
        p.y = make_geometry(rng, types.y, dims, rng.pick(all_layout_kinds()));
        const bool in_double = types.x == CUDNN_DATA_DOUBLE;
        p.alpha = rng.coin() ? 1.0 : Scalar(random_alpha(rng), in_double).value();
        p.beta = Scalar(random_beta(rng), in_double).value();
        TensorDescriptor x_desc(p.x), y_desc(p.y);
        check_against_reference(rng, p, [&](const void *alpha, void *x, const void *beta, void *y) {
            return cudnnTransformTensor(handle, alpha, x_desc, x, beta, y_desc, y);
        });
    }
}

TEST(TransformTensor, EightDimVectorisedTensorsMatchReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    const std::vector<int64_t> dims = {2, 32, 1, 2, 1, 2, 1, 3};
    const TypePair pairs[] = {{CUDNN_DATA_INT8, CUDNN_DATA_INT8x4}, {CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x4}};
    for (const TypePair &types : pairs) {
        TransformProblem p;
        p.x = make_geometry(rng, types.x, dims, LayoutKind::permuted);
        p.y = make_geometry(rng, types.y, dims, LayoutKind::padded);
        TensorDescriptor x_desc(p.x), y_desc(p.y);
        check_against_reference(rng, p, [&](const void *alpha, void *x, const void *beta, void *y) {
            return cudnnTransformTensor(handle, alpha, x_desc, x, beta, y_desc, y);
        });
    }
}

class TransformDescriptor {
public:
    TransformDescriptor(int nb_dims, cudnnTensorFormat_t format, const int32_t *before, const int32_t *after,
                        const uint32_t *fold, cudnnFoldingDirection_t direction) {
        EXPECT_EQ(cudnnCreateTensorTransformDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetTensorTransformDescriptor(desc_, static_cast<uint32_t>(nb_dims), format, before, after, fold,
                                                    direction),
                  CUDNN_STATUS_SUCCESS);
    }
    ~TransformDescriptor() { cudnnDestroyTensorTransformDescriptor(desc_); }
    operator cudnnTensorTransformDescriptor_t() const { return desc_; }

private:
    cudnnTensorTransformDescriptor_t desc_ = nullptr;
};

// The geometry cudnnInitTransformDest gives.
TensorGeometry destination_of(cudnnTensorTransformDescriptor_t transform, cudnnTensorDescriptor_t source) {
    cudnnTensorDescriptor_t dest = nullptr;
    EXPECT_EQ(cudnnCreateTensorDescriptor(&dest), CUDNN_STATUS_SUCCESS);
    size_t bytes = 0;
    EXPECT_EQ(cudnnInitTransformDest(transform, source, dest, &bytes), CUDNN_STATUS_SUCCESS);
    cudnnDataType_t type;
    int nb_dims = 0, dims[kMaxDims], strides[kMaxDims];
    EXPECT_EQ(cudnnGetTensorNdDescriptor(dest, kMaxDims, &type, &nb_dims, dims, strides), CUDNN_STATUS_SUCCESS);
    cudnnDestroyTensorDescriptor(dest);
    TensorGeometry g;
    g.dtype = type;
    g.nb_dims = nb_dims;
    for (int i = 0; i < nb_dims; ++i) {
        g.dims[i] = dims[i];
        g.strides[i] = strides[i];
    }
    return g;
}

// A random padding, folding or unfolding of 4d data, with the source dims it applies to. Channels stay
// whole vectors of `lanes` on both sides: channel padding then comes in whole vectors.
struct RandomReshape {
    std::vector<int64_t> x_dims;
    int32_t before[4] = {}, after[4] = {};
    uint32_t fold[2] = {1, 1};
    bool unfold = false;

    RandomReshape(Random &rng, int lanes, int64_t max_extent) {
        const int kind = static_cast<int>(rng.integer(0, 2));  // 0 pad, 1 fold (and pad), 2 unfold (and pad)
        if (kind != 0) {
            fold[0] = static_cast<uint32_t>(rng.integer(1, 3));
            fold[1] = static_cast<uint32_t>(rng.integer(1, 3));
        }
        unfold = kind == 2;
        x_dims = random_dims(rng, 4, max_extent, lanes);
        if (unfold) x_dims[1] *= fold[0] * fold[1];
        if (kind == 2 && rng.coin()) return;  // unfolding alone
        for (int i = 0; i < 4; ++i) {
            if (i == 1 && lanes > 1) {
                before[1] = rng.coin() ? lanes : 0;
                after[1] = rng.coin() ? lanes : 0;
                continue;
            }
            // Padding applies to the unfolded geometry; cropping (-1) needs an extent above 1 there.
            int64_t extent = x_dims[static_cast<size_t>(i)];
            if (unfold && i == 1) extent /= fold[0] * fold[1];
            if (unfold && i >= 2) extent *= fold[i - 2];
            before[i] = static_cast<int32_t>(rng.integer(0, 2));
            after[i] = static_cast<int32_t>(rng.integer(extent > 1 ? -1 : 0, 2));
        }
    }

    void apply_to(TransformProblem *p) const {
        for (int i = 0; i < 4; ++i) {
            p->pad_before[i] = before[i];
            p->pad_after[i] = after[i];
        }
        p->fold[0] = fold[0];
        p->fold[1] = fold[1];
        p->unfold = unfold;
    }

    // Padding with zeros and folding write y outright (alpha 1, beta 0); layout changes, unfolding and
    // cropping blend.
    bool blends() const {
        for (int i = 0; i < 4; ++i) {
            if (before[i] > 0 || after[i] > 0) return false;
        }
        return unfold || fold[0] * fold[1] == 1;
    }

    cudnnFoldingDirection_t direction() const { return unfold ? CUDNN_TRANSFORM_UNFOLD : CUDNN_TRANSFORM_FOLD; }
};

// y's dims for `p` (its x and reshape set), checked to be possible.
std::vector<int64_t> transformed_dims(const TransformProblem &p) {
    int64_t dims[kMaxDims];
    std::string reason;
    EXPECT_TRUE(transform_output_dims(p, dims, &reason)) << reason;
    return std::vector<int64_t>(dims, dims + p.x.nb_dims);
}

TEST(TransformTensorEx, MatchesReferenceWithPaddingFoldingAndUnfolding) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    const std::vector<cudnnDataType_t> types = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF,     CUDNN_DATA_DOUBLE,
                                                CUDNN_DATA_INT8,  CUDNN_DATA_BFLOAT16, CUDNN_DATA_UINT8,
                                                CUDNN_DATA_INT32, CUDNN_DATA_INT8x4,   CUDNN_DATA_INT8x32};
    for (int trial = 0; trial < 200; ++trial) {
        TransformProblem p;
        const cudnnDataType_t type = rng.pick(types);
        const int lanes = vector_count(type);
        // Vectorised data may stay in NCHW_VECT_C (its channels then pad by whole vectors) or leave it.
        cudnnTensorFormat_t format = rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
        if (lanes > 1 && rng.coin()) format = CUDNN_TENSOR_NCHW_VECT_C;
        const RandomReshape reshape(rng, format == CUDNN_TENSOR_NCHW_VECT_C ? lanes : 1, lanes == 32 ? 4 : 6);
        std::vector<int64_t> dims = reshape.x_dims;
        if (lanes > 1 && dims[1] % lanes != 0) dims[1] *= lanes;  // x is NCHW_VECT_C whatever y is
        p.x = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
        reshape.apply_to(&p);
        TransformDescriptor transform(4, format, reshape.before, reshape.after, reshape.fold, reshape.direction());
        TensorDescriptor x_desc(p.x);
        p.y = destination_of(transform, x_desc);
        const std::vector<int64_t> y_dims = transformed_dims(p);
        for (int i = 0; i < 4; ++i) ASSERT_EQ(p.y.dims[i], y_dims[static_cast<size_t>(i)]) << "cudnnInitTransformDest";
        // destDesc may have any strides, not only the packed ones cudnnInitTransformDest gives.
        if (rng.coin()) p.y = make_geometry(rng, p.y.dtype, y_dims, rng.pick(all_layout_kinds()));
        if (reshape.blends()) {
            p.alpha = Scalar(random_alpha(rng), type == CUDNN_DATA_DOUBLE).value();
            p.beta = Scalar(random_beta(rng), type == CUDNN_DATA_DOUBLE).value();
        }
        TensorDescriptor y_desc(p.y);
        check_against_reference(rng, p, [&](const void *alpha, void *x, const void *beta, void *y) {
            return cudnnTransformTensorEx(handle, transform, alpha, x_desc, x, beta, y_desc, y);
        });
    }
}

TEST(TransformTensorEx, FoldThenUnfoldGivesTheInputBack) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 20; ++trial) {
        uint32_t fold[2] = {static_cast<uint32_t>(rng.integer(1, 3)), static_cast<uint32_t>(rng.integer(1, 3))};
        std::vector<int64_t> dims = {rng.integer(1, 3), rng.integer(1, 4), fold[0] * rng.integer(1, 3),
                                     fold[1] * rng.integer(1, 3)};
        const TensorGeometry x = packed_geometry(CUDNN_DATA_FLOAT, 4, dims.data(), PackedLayout::nchw);
        SCOPED_TRACE("x " + geometry_to_string(x) + " fold " + std::to_string(fold[0]) + "x" + std::to_string(fold[1]));
        TransformDescriptor folding(4, CUDNN_TENSOR_NCHW, nullptr, nullptr, fold, CUDNN_TRANSFORM_FOLD);
        TransformDescriptor unfolding(4, CUDNN_TENSOR_NCHW, nullptr, nullptr, fold, CUDNN_TRANSFORM_UNFOLD);
        TensorDescriptor x_desc(x);
        const TensorGeometry folded = destination_of(folding, x_desc);
        TensorDescriptor folded_desc(folded);
        HostTensor input(x), middle(folded), output(x);
        fill_uniform(input, rng, -1.0, 1.0);
        poison(middle);
        poison(output);
        DeviceBuffer input_buffer(input.bytes), middle_buffer(middle.bytes), output_buffer(output.bytes);
        float one = 1.0f, zero = 0.0f;
        ASSERT_EQ(cudnnTransformTensorEx(handle, folding, &one, x_desc, input_buffer.get(), &zero, folded_desc,
                                         middle_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnTransformTensorEx(handle, unfolding, &one, folded_desc, middle_buffer.get(), &zero, x_desc,
                                         output_buffer.get()),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(output_buffer.download(), input.bytes);
    }
}

TEST(TransformTensorEx, UnfoldingThatCropsBlendsWithAlphaAndBeta) {
    // The last step of a folded backward-data convolution: unfold, crop the padding away, blend into dx.
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    const std::vector<cudnnDataType_t> types = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_DOUBLE,
                                                CUDNN_DATA_BFLOAT16};
    for (int trial = 0; trial < 30; ++trial) {
        TransformProblem p;
        const cudnnDataType_t type = rng.pick(types);
        p.fold[0] = static_cast<uint32_t>(rng.integer(1, 3));
        p.fold[1] = static_cast<uint32_t>(rng.integer(1, 3));
        p.unfold = rng.coin();
        const int64_t product = p.unfold ? p.fold[0] * p.fold[1] : 1;
        const std::vector<int64_t> dims = {rng.integer(1, 2), rng.integer(1, 3) * product, rng.integer(3, 5),
                                           rng.integer(3, 5)};
        p.x = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
        if (!p.unfold) p.fold[0] = p.fold[1] = 1;  // cropping alone
        for (int i = 2; i < 4; ++i) {
            p.pad_before[i] = -static_cast<int32_t>(rng.integer(0, 1));
            p.pad_after[i] = -static_cast<int32_t>(rng.integer(0, 1));
        }
        const std::vector<int64_t> y_dims = transformed_dims(p);
        p.y = make_geometry(rng, type, y_dims, rng.pick(all_layout_kinds()));
        p.alpha = Scalar(random_alpha(rng), type == CUDNN_DATA_DOUBLE).value();
        p.beta = Scalar(random_beta(rng), type == CUDNN_DATA_DOUBLE).value();
        TransformDescriptor transform(4, CUDNN_TENSOR_NCHW, p.pad_before, p.pad_after, p.fold,
                                      p.unfold ? CUDNN_TRANSFORM_UNFOLD : CUDNN_TRANSFORM_FOLD);
        TensorDescriptor x_desc(p.x), y_desc(p.y);
        check_against_reference(rng, p, [&](const void *alpha, void *x, const void *beta, void *y) {
            return cudnnTransformTensorEx(handle, transform, alpha, x_desc, x, beta, y_desc, y);
        });
    }
}

TEST(TransformTensorEx, FoldMovesBlockPositionsIntoChannels) {
    // 1x1x2x2 folded 2x2: the four positions become channels 0..3 in row-major order.
    Handle handle;
    const int64_t dims[] = {1, 1, 2, 2}, folded_dims[] = {1, 4, 1, 1};
    uint32_t fold[2] = {2, 2};
    TransformDescriptor folding(4, CUDNN_TENSOR_NCHW, nullptr, nullptr, fold, CUDNN_TRANSFORM_FOLD);
    TensorDescriptor x_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor y_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, folded_dims, PackedLayout::nchw));
    const std::vector<float> values = {1, 2, 3, 4};
    DeviceBuffer x(bytes_of(values)), y(bytes_of(std::vector<float>(4, 0.0f)));
    float one = 1.0f, zero = 0.0f;
    ASSERT_EQ(cudnnTransformTensorEx(handle, folding, &one, x_desc, x.get(), &zero, y_desc, y.get()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(values_of<float>(y.download()), values);
}

class FilterDescriptor {
public:
    FilterDescriptor(cudnnDataType_t type, cudnnTensorFormat_t format, const std::vector<int> &dims) {
        EXPECT_EQ(cudnnCreateFilterDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetFilterNdDescriptor(desc_, type, format, static_cast<int>(dims.size()), dims.data()),
                  CUDNN_STATUS_SUCCESS);
    }
    ~FilterDescriptor() { cudnnDestroyFilterDescriptor(desc_); }
    operator cudnnFilterDescriptor_t() const { return desc_; }

private:
    cudnnFilterDescriptor_t desc_ = nullptr;
};

TEST(TransformFilter, MatchesReferenceAcrossFormatsAndTypes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    const std::vector<cudnnDataType_t> types = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16,
                                                CUDNN_DATA_DOUBLE, CUDNN_DATA_INT8};
    for (int trial = 0; trial < 60; ++trial) {
        const cudnnDataType_t from = rng.pick(types), to = rng.pick(types);
        const cudnnTensorFormat_t from_format = rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
        const cudnnTensorFormat_t to_format = rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
        const std::vector<int> dims = {static_cast<int>(rng.integer(1, 6)), static_cast<int>(rng.integer(1, 6)),
                                       static_cast<int>(rng.integer(1, 4)), static_cast<int>(rng.integer(1, 4))};
        const std::vector<int64_t> dims64(dims.begin(), dims.end());
        TransformProblem p;
        p.x = packed_geometry(from, 4, dims64.data(),
                              from_format == CUDNN_TENSOR_NHWC ? PackedLayout::nhwc : PackedLayout::nchw);
        p.y = packed_geometry(to, 4, dims64.data(),
                              to_format == CUDNN_TENSOR_NHWC ? PackedLayout::nhwc : PackedLayout::nchw);
        FilterDescriptor src(from, from_format, dims), dest(to, to_format, dims);
        TransformDescriptor transform(4, to_format, nullptr, nullptr, nullptr, CUDNN_TRANSFORM_FOLD);
        check_against_reference(rng, p, [&](const void *alpha, void *x, const void *beta, void *y) {
            return cudnnTransformFilter(handle, transform, alpha, src, x, beta, dest, y);
        });
    }
}

TEST(TransformFilter, PadsFoldsAndConvertsLikeTheReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    struct FilterKind {
        cudnnDataType_t type;
        cudnnTensorFormat_t format;
    };
    const std::vector<FilterKind> kinds = {
        {CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW},         {CUDNN_DATA_FLOAT, CUDNN_TENSOR_NHWC},
        {CUDNN_DATA_HALF, CUDNN_TENSOR_NCHW},          {CUDNN_DATA_HALF, CUDNN_TENSOR_NHWC},
        {CUDNN_DATA_BFLOAT16, CUDNN_TENSOR_NHWC},      {CUDNN_DATA_DOUBLE, CUDNN_TENSOR_NCHW},
        {CUDNN_DATA_INT8, CUDNN_TENSOR_NCHW},          {CUDNN_DATA_INT8, CUDNN_TENSOR_NHWC},
        {CUDNN_DATA_INT8x4, CUDNN_TENSOR_NCHW_VECT_C}, {CUDNN_DATA_INT8x32, CUDNN_TENSOR_NCHW_VECT_C},
    };
    auto layout_of = [](cudnnTensorFormat_t format) {
        return format == CUDNN_TENSOR_NHWC          ? PackedLayout::nhwc
               : format == CUDNN_TENSOR_NCHW_VECT_C ? PackedLayout::nchw_vect_c
                                                    : PackedLayout::nchw;
    };
    for (int trial = 0; trial < 80; ++trial) {
        const FilterKind from = rng.pick(kinds), to = rng.pick(kinds);
        // 32 lanes hold 4 too: channels in whole vectors of the wider side fit both.
        const int lanes = std::max(vector_count(from.type), vector_count(to.type));
        const RandomReshape reshape(rng, lanes, lanes == 32 ? 3 : 5);
        TransformProblem p;
        p.x = packed_geometry(from.type, 4, reshape.x_dims.data(), layout_of(from.format));
        reshape.apply_to(&p);
        const std::vector<int64_t> y_dims = transformed_dims(p);
        p.y = packed_geometry(to.type, 4, y_dims.data(), layout_of(to.format));
        if (reshape.blends()) {
            const bool in_double = from.type == CUDNN_DATA_DOUBLE && to.type == CUDNN_DATA_DOUBLE;
            p.alpha = Scalar(random_alpha(rng), in_double).value();
            p.beta = Scalar(random_beta(rng), in_double).value();
        }
        FilterDescriptor src(from.type, from.format, std::vector<int>(reshape.x_dims.begin(), reshape.x_dims.end()));
        FilterDescriptor dest(to.type, to.format, std::vector<int>(y_dims.begin(), y_dims.end()));
        TransformDescriptor transform(4, to.format, reshape.before, reshape.after, reshape.fold, reshape.direction());
        check_against_reference(rng, p, [&](const void *alpha, void *x, const void *beta, void *y) {
            return cudnnTransformFilter(handle, transform, alpha, src, x, beta, dest, y);
        });
    }
}

TEST(TransformRejects, DocumentedMisuse) {
    Handle handle;
    const int64_t dims[] = {2, 4, 3, 3}, other[] = {2, 4, 3, 4}, folded[] = {2, 16, 2, 2};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw));
    TensorDescriptor wide(packed_geometry(CUDNN_DATA_FLOAT, 4, other, PackedLayout::nchw));
    TensorDescriptor half(packed_geometry(CUDNN_DATA_HALF, 4, dims, PackedLayout::nchw));
    TensorDescriptor booleans(packed_geometry(CUDNN_DATA_BOOLEAN, 4, dims, PackedLayout::nchw));
    TensorDescriptor folded_desc(packed_geometry(CUDNN_DATA_FLOAT, 4, folded, PackedLayout::nchw));
    std::vector<double> a(512, 0.0), b(512, 0.0);
    float one = 1.0f, two = 2.0f, zero = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnTransformTensor(handle, &one, x, a.data(), &zero, wide, b.data()),
                    "2x4x3x4");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnTransformTensor(handle, &one, x, a.data(), &zero, half, b.data()),
                    "not the data type");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnTransformTensor(handle, &one, x, a.data(), &zero, x, a.data()),
                    "in place");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnTransformTensor(handle, &one, booleans, a.data(), &zero, booleans, b.data()),
                    "CUDNN_DATA_BOOLEAN");
    uint32_t fold[2] = {2, 2};
    TransformDescriptor folding(4, CUDNN_TENSOR_NCHW, nullptr, nullptr, fold, CUDNN_TRANSFORM_FOLD);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnTransformTensorEx(handle, folding, &two, x, a.data(), &zero, folded_desc, b.data()),
                    "alpha = 1 and beta = 0");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnTransformTensorEx(handle, folding, &one, x, a.data(), &zero, wide, b.data()),
                    "transformed is 2x16x2x2");
    const int32_t pad_before[4] = {0, 0, 0, 0}, pad_after[4] = {0, 0, 0, 1};
    TransformDescriptor padding(4, CUDNN_TENSOR_NCHW, pad_before, pad_after, nullptr, CUDNN_TRANSFORM_FOLD);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnTransformTensorEx(handle, padding, &one, x, a.data(), &two, wide, b.data()),
                    "alpha = 1 and beta = 0");
    cudnnTensorTransformDescriptor_t unset = nullptr;
    ASSERT_EQ(cudnnCreateTensorTransformDescriptor(&unset), CUDNN_STATUS_SUCCESS);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnTransformTensorEx(handle, unset, &one, x, a.data(), &zero, x, b.data()), "transDesc");
    cudnnDestroyTensorTransformDescriptor(unset);
}

}  // namespace
