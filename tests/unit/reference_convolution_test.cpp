// The reference convolution (and the tensor view and float formats under it): hand-computed cases,
// adjointness of the backward directions, alpha/beta blending, layouts through strides.
#include "problem/problem_string.hpp"
#include "reference/convolution.hpp"
#include "reference/tensor_view.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using librednn::ProblemString;
using namespace librednn::reference;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// Fresh data every run; LIBREDNN_TEST_SEED=<n> replays a failure.
uint32_t test_seed() {
    if (const char *seed = std::getenv("LIBREDNN_TEST_SEED"))
        return static_cast<uint32_t>(std::strtoul(seed, nullptr, 10));
    return std::random_device{}();
}

void fill_random(HostTensor &tensor, std::mt19937 &rng) {
    std::uniform_real_distribution<double> uniform(-1, 1);
    for_each_index(tensor.view().dims, [&](const Index &i) { tensor.write(i, uniform(rng)); });
}

double dot(const HostTensor &a, const HostTensor &b) {
    const std::vector<double> u = a.values(), v = b.values();
    double sum = 0;
    for (size_t i = 0; i < u.size(); ++i) sum += u[i] * v[i];
    return sum;
}

ConvolutionGeometry geometry_2d(std::vector<int64_t> padding, std::vector<int64_t> stride,
                                std::vector<int64_t> dilation, int64_t groups = 1,
                                cudnnConvolutionMode_t mode = CUDNN_CROSS_CORRELATION) {
    ConvolutionGeometry conv;
    conv.padding = std::move(padding);
    conv.stride = std::move(stride);
    conv.dilation = std::move(dilation);
    conv.groups = groups;
    conv.mode = mode;
    return conv;
}

// 1..9 in a 1x1x3x3 tensor.
HostTensor one_to_nine() {
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 3, 3});
    x.set_values({1, 2, 3, 4, 5, 6, 7, 8, 9});
    return x;
}

// A random convolution: 2-d or 3-d, groups, padding, stride, dilation, either mode, NCHW or NHWC.
struct RandomConvolution {
    ConvolutionGeometry conv;
    std::vector<int64_t> x_dims, w_dims, y_dims;
    bool channels_last = false;

    std::string problem(uint32_t seed) const {
        ProblemString p;
        p.set("op", "conv");
        p.set_dims("x", x_dims);
        p.set_dims("w", w_dims);
        p.set_dims("pad", conv.padding);
        p.set_dims("stride", conv.stride);
        p.set_dims("dilation", conv.dilation);
        p.set("groups", static_cast<long long>(conv.groups));
        p.set("mode", conv.mode == CUDNN_CONVOLUTION ? "conv" : "xcorr");
        p.set("layout", channels_last ? "nhwc" : "nchw");
        p.set("seed", static_cast<long long>(seed));
        return p.to_string();
    }

    std::vector<int64_t> strides(const std::vector<int64_t> &dims) const {
        return channels_last ? channels_last_strides(dims) : packed_strides(dims);
    }
};

RandomConvolution random_convolution(std::mt19937 &rng) {
    auto pick = [&](int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(rng); };
    RandomConvolution c;
    const int spatial = static_cast<int>(pick(2, 3));
    c.conv.groups = pick(1, 3);
    c.conv.mode = pick(0, 1) ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION;
    c.channels_last = pick(0, 1);
    c.x_dims = {pick(1, 2), c.conv.groups * pick(1, 3)};
    c.w_dims = {c.conv.groups * pick(1, 3), c.x_dims[1] / c.conv.groups};
    for (int d = 0; d < spatial; ++d) {
        const int64_t filter = pick(1, 3), dilation = pick(1, 2), pad = pick(0, 2);
        const int64_t dilated = (filter - 1) * dilation + 1;
        c.conv.padding.push_back(pad);
        c.conv.stride.push_back(pick(1, 3));
        c.conv.dilation.push_back(dilation);
        c.w_dims.push_back(filter);
        c.x_dims.push_back(std::max<int64_t>(1, dilated - 2 * pad) + pick(0, spatial == 2 ? 5 : 2));
    }
    c.y_dims = convolution_output_dims(c.conv, c.x_dims, c.w_dims);
    return c;
}

// ---- float formats and tensor views ----------------------------------------------------------------

// The bits a 16-bit view stores for `value`.
uint16_t stored_bits(cudnnDataType_t type, double value) {
    HostTensor t(type, {1});
    t.write({0}, value);
    uint16_t bits;
    std::memcpy(&bits, t.view().data, sizeof bits);
    return bits;
}

// The value a 16-bit view reads from `bits`.
double read_bits(cudnnDataType_t type, uint16_t bits) {
    HostTensor t(type, {1});
    std::memcpy(t.data(), &bits, sizeof bits);
    return t.read({0});
}

TEST(ReferenceTensorView, HalfWritesRoundToNearestEven) {
    const cudnnDataType_t half = CUDNN_DATA_HALF;
    EXPECT_EQ(stored_bits(half, 1.0), 0x3C00);
    EXPECT_EQ(stored_bits(half, -2.0), 0xC000);
    EXPECT_EQ(stored_bits(half, 0.1), 0x2E66);
    EXPECT_EQ(stored_bits(half, 65504.0), 0x7BFF);
    EXPECT_EQ(stored_bits(half, 65519.99), 0x7BFF);
    EXPECT_EQ(stored_bits(half, 65520.0), 0x7C00);  // the tie rounds to the even neighbour: infinity
    EXPECT_EQ(stored_bits(half, -1e9), 0xFC00);
    EXPECT_EQ(stored_bits(half, std::ldexp(1.0, -24)), 0x0001);      // smallest subnormal
    EXPECT_EQ(stored_bits(half, std::ldexp(1.0, -25)), 0x0000);      // tie between 0 and it: 0 is even
    EXPECT_EQ(stored_bits(half, std::ldexp(3.0, -26)), 0x0001);      // 0.75 of it rounds up
    EXPECT_EQ(stored_bits(half, 1 + std::ldexp(1.0, -11)), 0x3C00);  // tie: stays on the even 1.0
    EXPECT_EQ(stored_bits(half, 1 + std::ldexp(3.0, -11)), 0x3C02);  // tie: up to the even 1 + 2^-9
    // Just above a tie: straight from double rounds up; through float it would round to the tie, then down.
    EXPECT_EQ(stored_bits(half, 1 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40)), 0x3C01);
    EXPECT_EQ(stored_bits(half, -0.0), 0x8000);
    EXPECT_EQ(stored_bits(half, kNaN) & 0x7C00, 0x7C00);
    EXPECT_NE(stored_bits(half, kNaN) & 0x03FF, 0);
    EXPECT_EQ(read_bits(half, 0x7BFF), 65504.0);
    EXPECT_EQ(read_bits(half, 0x0001), std::ldexp(1.0, -24));
    EXPECT_TRUE(std::isnan(read_bits(half, 0x7E00)));
}

TEST(ReferenceTensorView, BFloat16WritesRoundToNearestEven) {
    const cudnnDataType_t bf16 = CUDNN_DATA_BFLOAT16;
    EXPECT_EQ(stored_bits(bf16, 1.0), 0x3F80);
    EXPECT_EQ(stored_bits(bf16, 3.14159265358979), 0x4049);
    EXPECT_EQ(stored_bits(bf16, -std::ldexp(255.0, 120)), 0xFF7F);                         // largest finite, negative
    EXPECT_EQ(stored_bits(bf16, std::ldexp(511.0, 119)), 0x7F80);                          // the tie above it: infinity
    EXPECT_EQ(stored_bits(bf16, 1 + std::ldexp(1.0, -8)), 0x3F80);                         // tie: stays on the even 1.0
    EXPECT_EQ(stored_bits(bf16, 1 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40)), 0x3F81);  // no double rounding
    EXPECT_EQ(read_bits(bf16, 0x4049), 3.140625);
}

TEST(ReferenceTensorView, EveryHalfAndBFloat16PatternRoundTrips) {
    for (cudnnDataType_t type : {CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16}) {
        for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
            const double value = read_bits(type, static_cast<uint16_t>(bits));
            if (!std::isnan(value)) {
                ASSERT_EQ(stored_bits(type, value), bits) << "type " << type << " bits 0x" << std::hex << bits;
            }
        }
    }
}

TEST(ReferenceTensorView, IntegerWritesRoundToEvenAndSaturate) {
    HostTensor t8(CUDNN_DATA_INT8, {6});
    t8.set_values({200, -200, 2.5, 3.5, -2.5, kNaN});
    EXPECT_EQ(t8.values(), (std::vector<double>{127, -128, 2, 4, -2, 0}));
    HostTensor u8(CUDNN_DATA_UINT8, {3});
    u8.set_values({-1, 255.4, 300});
    EXPECT_EQ(u8.values(), (std::vector<double>{0, 255, 255}));
    HostTensor i32(CUDNN_DATA_INT32, {3});
    i32.set_values({1e12, -1e12, 123456789.5});
    EXPECT_EQ(i32.values(), (std::vector<double>{2147483647.0, -2147483648.0, 123456790}));
}

TEST(ReferenceTensorView, FloatingWritesRoundOnceToTheirType) {
    HostTensor values(CUDNN_DATA_DOUBLE, {1});
    const double third = 1.0 / 3;
    for (cudnnDataType_t type : {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16}) {
        HostTensor t(type, {2});
        t.set_values({third, 1e300});
        const std::vector<double> stored = t.values();
        const double expected = type == CUDNN_DATA_FLOAT  ? static_cast<double>(static_cast<float>(third))
                                : type == CUDNN_DATA_HALF ? 0.333251953125  // 0x3555
                                                          : 0.333984375;    // 0x3EAB
        EXPECT_EQ(stored[0], expected) << type;
        EXPECT_TRUE(std::isinf(stored[1])) << type;
    }
}

TEST(ReferenceTensorView, StridesPlaceElementsAsTheLayoutSays) {
    EXPECT_EQ(packed_strides({2, 3, 4, 5}), (std::vector<int64_t>{60, 20, 5, 1}));
    EXPECT_EQ(channels_last_strides({2, 3, 4, 5}), (std::vector<int64_t>{60, 1, 15, 3}));
    EXPECT_EQ(channels_last_strides({2, 3, 4, 5, 6}), (std::vector<int64_t>{360, 1, 90, 18, 3}));
    HostTensor nhwc(CUDNN_DATA_FLOAT, {1, 2, 2, 2}, channels_last_strides({1, 2, 2, 2}));
    nhwc.write({0, 1, 0, 1}, 7);  // C=1, H=0, W=1: element (0*2 + 1)*2 + 1 = 3 in memory
    EXPECT_EQ(static_cast<const float *>(nhwc.view().data)[3], 7.0f);
    EXPECT_EQ(nhwc.size_in_bytes(), 8 * sizeof(float));
}

TEST(ReferenceTensorView, CopiesOwnTheirBytes) {
    HostTensor a(CUDNN_DATA_FLOAT, {2});
    a.set_values({1, 2});
    HostTensor b = a;
    b.write({0}, 5);
    EXPECT_EQ(a.values(), (std::vector<double>{1, 2}));
    EXPECT_EQ(b.values(), (std::vector<double>{5, 2}));
}

TEST(ReferenceTensorView, CheckViewRejectsUnusableViewsWithReason) {
    HostTensor t(CUDNN_DATA_FLOAT, {2, 2});
    TensorView view = t.view();
    EXPECT_EQ(check_view(view, "x"), CUDNN_STATUS_SUCCESS);
    view.type = CUDNN_DATA_INT8x4;
    EXPECT_EQ(check_view(view, "x"), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("int8x4"), std::string::npos);
    view = t.view();
    view.strides.pop_back();
    EXPECT_EQ(check_view(view, "x"), CUDNN_STATUS_BAD_PARAM);
    view = t.view();
    view.data = nullptr;
    EXPECT_EQ(check_view(view, "x"), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("x has no data"), std::string::npos);
}

// ---- hand-computed convolutions ------------------------------------------------------------------

TEST(ReferenceConvolution, CrossCorrelationOf3x3WithA2x2FilterByHand) {
    // y[i][j] = sum x[i+r][j+s] * w[r][s] with w = [1 2; 3 4]:
    // y00 = 1*1 + 2*2 + 4*3 + 5*4 = 37, y01 = 2 + 6 + 15 + 24 = 47, y10 = 4 + 10 + 21 + 32 = 67, y11 = 77.
    const HostTensor x = one_to_nine();
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    w.set_values({1, 2, 3, 4});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    ASSERT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}), 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{37, 47, 67, 77}));
}

TEST(ReferenceConvolution, ConvolutionModeFlipsTheFilter) {
    // The filter flipped is [4 3; 2 1]: y00 = 1*4 + 2*3 + 4*2 + 5*1 = 23, y01 = 33, y10 = 53, y11 = 63.
    const HostTensor x = one_to_nine();
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    w.set_values({1, 2, 3, 4});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    const ConvolutionGeometry conv = geometry_2d({0, 0}, {1, 1}, {1, 1}, 1, CUDNN_CONVOLUTION);
    ASSERT_EQ(convolution_forward(conv, 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{23, 33, 53, 63}));
}

TEST(ReferenceConvolution, PaddingAndStrideByHand) {
    // A 2x2 filter of ones, padding 1, stride 2: windows start at (-1,-1), (-1,1), (1,-1), (1,1) and
    // see {1}, {2,3}, {4,7}, {5,6,8,9}.
    const HostTensor x = one_to_nine();
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    w.fill(1);
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    ASSERT_EQ(convolution_forward(geometry_2d({1, 1}, {2, 2}, {1, 1}), 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{1, 5, 11, 28}));
}

TEST(ReferenceConvolution, DilationSpreadsTheTapsByHand) {
    // A 2x2 filter [1 2; 3 4] with dilation 2 on 3x3 touches the corners: 1*1 + 3*2 + 7*3 + 9*4 = 64.
    const HostTensor x = one_to_nine();
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    w.set_values({1, 2, 3, 4});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 1, 1});
    ASSERT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {2, 2}), 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{64}));
}

TEST(ReferenceConvolution, ThreeDimensionalByHand) {
    // 1..8 in a 2x2x2 volume with a 2x2x2 filter of ones and no padding: one output, the sum 36; with
    // padding 1 and stride 2 the corner window (-1,-1,-1) sees only x[0][0][0] = 1.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 2, 2, 2});
    x.set_values({1, 2, 3, 4, 5, 6, 7, 8});
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2, 2});
    w.fill(1);
    ConvolutionGeometry conv;
    conv.padding = {0, 0, 0};
    conv.stride = {1, 1, 1};
    conv.dilation = {1, 1, 1};
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 1, 1, 1});
    ASSERT_EQ(convolution_forward(conv, 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{36}));
    conv.padding = {1, 1, 1};
    conv.stride = {2, 2, 2};
    HostTensor padded(CUDNN_DATA_DOUBLE, {1, 1, 2, 2, 2});
    ASSERT_EQ(convolution_forward(conv, 1, x, w, 0, padded), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(padded.read({0, 0, 0, 0, 0}), 1);
    EXPECT_EQ(padded.read({0, 0, 1, 1, 1}), 8);
}

TEST(ReferenceConvolution, GroupsKeepChannelsApart) {
    // Two groups of one channel each, 1x1 filters 2 and 3: channel 0 doubles, channel 1 triples.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 2, 1, 2});
    x.set_values({1, 2, 10, 20});
    HostTensor w(CUDNN_DATA_DOUBLE, {2, 1, 1, 1});
    w.set_values({2, 3});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 2, 1, 2});
    ASSERT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}, 2), 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{2, 4, 30, 60}));
    // Backward data sends each group's gradient to its own channels only.
    HostTensor dx(CUDNN_DATA_DOUBLE, {1, 2, 1, 2});
    ASSERT_EQ(convolution_backward_data(geometry_2d({0, 0}, {1, 1}, {1, 1}, 2), 1, w, y, 0, dx), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{4, 8, 90, 180}));
}

TEST(ReferenceConvolution, Int8InputsAccumulateExactlyIntoInt32) {
    HostTensor x(CUDNN_DATA_INT8, {1, 2, 1, 1});
    x.set_values({-128, 127});
    HostTensor w(CUDNN_DATA_INT8, {1, 2, 1, 1});
    w.set_values({-128, -128});
    HostTensor y(CUDNN_DATA_INT32, {1, 1, 1, 1});
    ASSERT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}), 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{128}));  // 16384 - 16256
}

TEST(ReferenceConvolution, BackwardBiasSumsOverImagesAndPositions) {
    HostTensor dy(CUDNN_DATA_DOUBLE, {2, 2, 1, 2});
    dy.set_values({1, 2, 3, 4, 5, 6, 7, 8});  // channel 0: 1 2 | 5 6, channel 1: 3 4 | 7 8
    HostTensor db(CUDNN_DATA_DOUBLE, {1, 2, 1, 1});
    db.set_values({100, 200});
    ASSERT_EQ(convolution_backward_bias(2, dy, 0.5, db), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(db.values(), (std::vector<double>{2 * 14 + 50, 2 * 22 + 100}));
}

// ---- identities ----------------------------------------------------------------------------------

TEST(ReferenceConvolution, IdentityFilterCopiesTheInput) {
    const uint32_t seed = test_seed();
    SCOPED_TRACE("seed=" + std::to_string(seed));
    std::mt19937 rng(seed);
    HostTensor x(CUDNN_DATA_DOUBLE, {2, 3, 4, 5});
    fill_random(x, rng);
    HostTensor w(CUDNN_DATA_DOUBLE, {3, 3, 1, 1});
    for (int64_t c = 0; c < 3; ++c) w.write({c, c, 0, 0}, 1);
    HostTensor y(CUDNN_DATA_DOUBLE, {2, 3, 4, 5});
    for (cudnnConvolutionMode_t mode : {CUDNN_CROSS_CORRELATION, CUDNN_CONVOLUTION}) {
        ASSERT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}, 1, mode), 1, x, w, 0, y),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(y.values(), x.values());
    }
}

TEST(ReferenceConvolution, BackwardDataIsTheAdjointOfForward) {
    // <conv(x, w), dy> == <x, backward_data(w, dy)> for every linear map and its adjoint.
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 40; ++trial) {
        const RandomConvolution c = random_convolution(rng);
        SCOPED_TRACE(c.problem(seed) + " trial=" + std::to_string(trial));
        HostTensor x(CUDNN_DATA_DOUBLE, c.x_dims, c.strides(c.x_dims)), w(CUDNN_DATA_DOUBLE, c.w_dims);
        HostTensor dy(CUDNN_DATA_DOUBLE, c.y_dims, c.strides(c.y_dims));
        fill_random(x, rng);
        fill_random(w, rng);
        fill_random(dy, rng);
        HostTensor y = dy, dx = x;
        ASSERT_EQ(convolution_forward(c.conv, 1, x, w, 0, y), CUDNN_STATUS_SUCCESS) << librednn::last_failure_reason();
        ASSERT_EQ(convolution_backward_data(c.conv, 1, w, dy, 0, dx), CUDNN_STATUS_SUCCESS);
        const double forward_side = dot(y, dy), backward_side = dot(x, dx);
        EXPECT_NEAR(forward_side, backward_side, 1e-10 * std::max(1.0, std::abs(forward_side)));
    }
}

TEST(ReferenceConvolution, BackwardFilterIsTheAdjointOfForwardInTheFilter) {
    // <conv(x, w), dy> == <w, backward_filter(x, dy)>.
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 40; ++trial) {
        const RandomConvolution c = random_convolution(rng);
        SCOPED_TRACE(c.problem(seed) + " trial=" + std::to_string(trial));
        HostTensor x(CUDNN_DATA_DOUBLE, c.x_dims, c.strides(c.x_dims));
        HostTensor w(CUDNN_DATA_DOUBLE, c.w_dims, c.strides(c.w_dims));
        HostTensor dy(CUDNN_DATA_DOUBLE, c.y_dims, c.strides(c.y_dims));
        fill_random(x, rng);
        fill_random(w, rng);
        fill_random(dy, rng);
        HostTensor y = dy, dw = w;
        ASSERT_EQ(convolution_forward(c.conv, 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(convolution_backward_filter(c.conv, 1, x, dy, 0, dw), CUDNN_STATUS_SUCCESS);
        const double forward_side = dot(y, dy), backward_side = dot(w, dw);
        EXPECT_NEAR(forward_side, backward_side, 1e-10 * std::max(1.0, std::abs(forward_side)));
    }
}

TEST(ReferenceConvolution, ChannelsLastGivesTheSameNumbersAsNchw) {
    // The same logical tensors in NHWC/KRSC memory: every direction gives identical results.
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 10; ++trial) {
        RandomConvolution c = random_convolution(rng);
        c.channels_last = false;
        SCOPED_TRACE(c.problem(seed) + " trial=" + std::to_string(trial));
        HostTensor x(CUDNN_DATA_FLOAT, c.x_dims), w(CUDNN_DATA_FLOAT, c.w_dims), dy(CUDNN_DATA_FLOAT, c.y_dims);
        fill_random(x, rng);
        fill_random(w, rng);
        fill_random(dy, rng);
        HostTensor x_last(CUDNN_DATA_FLOAT, c.x_dims, channels_last_strides(c.x_dims));
        HostTensor w_last(CUDNN_DATA_FLOAT, c.w_dims, channels_last_strides(c.w_dims));
        HostTensor dy_last(CUDNN_DATA_FLOAT, c.y_dims, channels_last_strides(c.y_dims));
        x_last.set_values(x.values());
        w_last.set_values(w.values());
        dy_last.set_values(dy.values());

        HostTensor y = dy, y_last = dy_last, dx = x, dx_last = x_last, dw = w, dw_last = w_last;
        ASSERT_EQ(convolution_forward(c.conv, 1, x, w, 0, y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(convolution_forward(c.conv, 1, x_last, w_last, 0, y_last), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(y.values(), y_last.values());
        ASSERT_EQ(convolution_backward_data(c.conv, 1, w, dy, 0, dx), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(convolution_backward_data(c.conv, 1, w_last, dy_last, 0, dx_last), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dx.values(), dx_last.values());
        ASSERT_EQ(convolution_backward_filter(c.conv, 1, x, dy, 0, dw), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(convolution_backward_filter(c.conv, 1, x_last, dy_last, 0, dw_last), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dw.values(), dw_last.values());
    }
}

// ---- alpha / beta --------------------------------------------------------------------------------

TEST(ReferenceConvolution, BetaZeroNeverReadsTheOutput) {
    // Outputs poisoned with NaN: with beta == 0 the results are alpha times the plain results.
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const RandomConvolution c = random_convolution(rng);
    SCOPED_TRACE(c.problem(seed));
    HostTensor x(CUDNN_DATA_FLOAT, c.x_dims), w(CUDNN_DATA_FLOAT, c.w_dims), dy(CUDNN_DATA_FLOAT, c.y_dims);
    fill_random(x, rng);
    fill_random(w, rng);
    fill_random(dy, rng);
    const double alpha = 0.5;  // a power of two: alpha * result rounds the same as result

    HostTensor plain_y = dy, plain_dx = x, plain_dw = w;
    ASSERT_EQ(convolution_forward(c.conv, 1, x, w, 0, plain_y), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(convolution_backward_data(c.conv, 1, w, dy, 0, plain_dx), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(convolution_backward_filter(c.conv, 1, x, dy, 0, plain_dw), CUDNN_STATUS_SUCCESS);

    HostTensor y = dy, dx = x, dw = w;
    y.fill(kNaN);
    dx.fill(kNaN);
    dw.fill(kNaN);
    ASSERT_EQ(convolution_forward(c.conv, alpha, x, w, 0, y), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(convolution_backward_data(c.conv, alpha, w, dy, 0, dx), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(convolution_backward_filter(c.conv, alpha, x, dy, 0, dw), CUDNN_STATUS_SUCCESS);
    for (const auto &[result, plain] :
         {std::make_pair(&y, &plain_y), std::make_pair(&dx, &plain_dx), std::make_pair(&dw, &plain_dw)}) {
        const std::vector<double> got = result->values(), expected = plain->values();
        for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], alpha * expected[i]) << "element " << i;
    }
}

TEST(ReferenceConvolution, AlphaAndBetaBlendWithTheOldOutput) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const RandomConvolution c = random_convolution(rng);
    SCOPED_TRACE(c.problem(seed));
    HostTensor x(CUDNN_DATA_DOUBLE, c.x_dims), w(CUDNN_DATA_DOUBLE, c.w_dims), old_y(CUDNN_DATA_DOUBLE, c.y_dims);
    fill_random(x, rng);
    fill_random(w, rng);
    fill_random(old_y, rng);
    HostTensor plain = old_y, y = old_y;
    ASSERT_EQ(convolution_forward(c.conv, 1, x, w, 0, plain), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(convolution_forward(c.conv, 0.75, x, w, -1.5, y), CUDNN_STATUS_SUCCESS);
    const std::vector<double> got = y.values(), conv = plain.values(), old = old_y.values();
    for (size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], 0.75 * conv[i] - 1.5 * old[i], 1e-12) << i;
}

// ---- fused bias + activation ---------------------------------------------------------------------

TEST(ReferenceConvolution, BiasActivationIsActOfScaledConvPlusScaledZPlusBias) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const RandomConvolution c = random_convolution(rng);
    SCOPED_TRACE(c.problem(seed));
    HostTensor x(CUDNN_DATA_DOUBLE, c.x_dims), w(CUDNN_DATA_DOUBLE, c.w_dims), z(CUDNN_DATA_DOUBLE, c.y_dims);
    std::vector<int64_t> bias_dims(c.y_dims.size(), 1);
    bias_dims[1] = c.y_dims[1];
    HostTensor bias(CUDNN_DATA_DOUBLE, bias_dims);
    fill_random(x, rng);
    fill_random(w, rng);
    fill_random(z, rng);
    fill_random(bias, rng);
    HostTensor conv = z;
    ASSERT_EQ(convolution_forward(c.conv, 1, x, w, 0, conv), CUDNN_STATUS_SUCCESS);

    Activation relu;
    relu.mode = CUDNN_ACTIVATION_RELU;
    HostTensor y = z;
    y.fill(kNaN);  // never read
    ASSERT_EQ(convolution_bias_activation_forward(c.conv, 2, x, w, -0.5, z, bias, relu, y), CUDNN_STATUS_SUCCESS);
    // z and y in the same memory: each z element is read before its y element is written.
    HostTensor in_place = z;
    ASSERT_EQ(convolution_bias_activation_forward(c.conv, 2, x, w, -0.5, in_place, bias, relu, in_place),
              CUDNN_STATUS_SUCCESS);
    Index bias_index(bias_dims.size(), 0);
    for_each_index(c.y_dims, [&](const Index &i) {
        bias_index[1] = i[1];
        const double expected = std::max(0.0, 2 * conv.read(i) - 0.5 * z.read(i) + bias.read(bias_index));
        ASSERT_NEAR(y.read(i), expected, 1e-12);
        ASSERT_EQ(in_place.read(i), y.read(i));
    });
}

TEST(ReferenceConvolution, BiasActivationSkipsZWhenAlpha2IsZero) {
    const HostTensor x = one_to_nine();
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    w.set_values({1, 2, 3, 4});
    HostTensor z(CUDNN_DATA_DOUBLE, {1, 1, 2, 2}), bias(CUDNN_DATA_DOUBLE, {1, 1, 1, 1}),
        y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    z.fill(kNaN);
    bias.set_values({-50});
    Activation identity;  // CUDNN_ACTIVATION_IDENTITY
    ASSERT_EQ(
        convolution_bias_activation_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}), 1, x, w, 0, z, bias, identity, y),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{-13, -3, 17, 27}));
    Activation clipped;
    clipped.mode = CUDNN_ACTIVATION_CLIPPED_RELU;
    clipped.coef = 20;
    ASSERT_EQ(convolution_bias_activation_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}), 1, x, w, 0, z, bias, clipped, y),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{0, 0, 17, 20}));
}

// ---- rejections ----------------------------------------------------------------------------------

TEST(ReferenceConvolution, RejectsDisagreeingShapesWithReasonAndWritesNothing) {
    const HostTensor x = one_to_nine();
    HostTensor w(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 3, 3});
    y.fill(42);
    EXPECT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}), 1, x, w, 0, y), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("y is 1x1x3x3; the convolution of x 1x1x3x3 with w 1x1x2x2 "
                                                   "produces 1x1x2x2"),
              std::string::npos)
        << librednn::last_failure_reason();
    EXPECT_EQ(y.values(), std::vector<double>(9, 42));

    HostTensor y2(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    EXPECT_EQ(convolution_forward(geometry_2d({0, 0}, {1, 1}, {1, 1}, 2), 1, x, w, 0, y2), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("groups"), std::string::npos);
    EXPECT_EQ(convolution_forward(geometry_2d({0}, {1}, {1}), 1, x, w, 0, y2), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(convolution_forward(geometry_2d({0, 0}, {0, 1}, {1, 1}), 1, x, w, 0, y2), CUDNN_STATUS_BAD_PARAM);
    HostTensor db(CUDNN_DATA_DOUBLE, {1, 2, 1, 1});
    EXPECT_EQ(convolution_backward_bias(1, y2, 0, db), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("db is 1x2x1x1; for dy 1x1x2x2 it must be 1x1x1x1"),
              std::string::npos)
        << librednn::last_failure_reason();
}

}  // namespace
