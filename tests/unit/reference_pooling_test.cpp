// The reference pooling: hand-computed windows, NaN propagation, where max backward routes the
// gradient, adjointness of the linear cases, alpha/beta blending, layouts through strides.
#include "problem/problem_string.hpp"
#include "reference/pooling.hpp"
#include "reference/tensor_view.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
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

double sum_of(const HostTensor &t) {
    double sum = 0;
    for (double v : t.values()) sum += v;
    return sum;
}

PoolingGeometry geometry(cudnnPoolingMode_t mode, std::vector<int64_t> window, std::vector<int64_t> padding,
                         std::vector<int64_t> stride, cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN) {
    PoolingGeometry pool;
    pool.mode = mode;
    pool.nan_opt = nan_opt;
    pool.window = std::move(window);
    pool.padding = std::move(padding);
    pool.stride = std::move(stride);
    return pool;
}

const char *mode_name(cudnnPoolingMode_t mode) {
    switch (mode) {
        case CUDNN_POOLING_MAX: return "max";
        case CUDNN_POOLING_MAX_DETERMINISTIC: return "max_deterministic";
        case CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING: return "avg_include_pad";
        case CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING: return "avg_exclude_pad";
    }
    return "unknown";
}

const cudnnPoolingMode_t kModes[] = {CUDNN_POOLING_MAX, CUDNN_POOLING_MAX_DETERMINISTIC,
                                     CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING,
                                     CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING};

// A random 2-d or 3-d pooling (overlapping windows included) of a random input.
struct RandomPooling {
    PoolingGeometry pool;
    std::vector<int64_t> x_dims, y_dims;

    std::string problem(uint32_t seed) const {
        ProblemString p;
        p.set("op", "pool");
        p.set("mode", mode_name(pool.mode));
        p.set_dims("x", x_dims);
        p.set_dims("window", pool.window);
        p.set_dims("pad", pool.padding);
        p.set_dims("stride", pool.stride);
        p.set("seed", static_cast<long long>(seed));
        return p.to_string();
    }
};

RandomPooling random_pooling(cudnnPoolingMode_t mode, std::mt19937 &rng) {
    auto pick = [&](int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(rng); };
    RandomPooling r;
    r.pool.mode = mode;
    const int spatial = static_cast<int>(pick(2, 3));
    r.x_dims = {pick(1, 2), pick(1, 3)};
    for (int d = 0; d < spatial; ++d) {
        const int64_t window = pick(1, 3);
        r.pool.window.push_back(window);
        r.pool.padding.push_back(pick(0, window - 1));
        r.pool.stride.push_back(pick(1, 3));
        r.x_dims.push_back(window + pick(0, spatial == 2 ? 5 : 2));
    }
    r.y_dims = pooling_output_dims(r.pool, r.x_dims);
    return r;
}

// 1..9 in a 1x1x3x3 tensor.
HostTensor one_to_nine() {
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 3, 3});
    x.set_values({1, 2, 3, 4, 5, 6, 7, 8, 9});
    return x;
}

// ---- forward by hand -----------------------------------------------------------------------------

TEST(ReferencePooling, MaxAndAverageOfDisjointWindowsByHand) {
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 4, 4});
    x.set_values({1, 5, 2, 0, 3, -1, 8, 4, -2, -3, 6, 6, -4, -5, 7, 1});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    ASSERT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {2, 2}, {0, 0}, {2, 2}), 1, x, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{5, 8, -2, 7}));
    ASSERT_EQ(
        pooling_forward(geometry(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, {2, 2}, {0, 0}, {2, 2}), 1, x, 0, y),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{2, 3.5, -3.5, 5}));
}

TEST(ReferencePooling, PaddingCountsOnlyWhereTheModeSaysByHand) {
    // 2x2 windows, padding 1, stride 2 on 1..9 see {1}, {2,3}, {4,7} and {5,6,8,9}.
    const HostTensor x = one_to_nine();
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    ASSERT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {2, 2}, {1, 1}, {2, 2}), 1, x, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{1, 3, 7, 9}));
    ASSERT_EQ(
        pooling_forward(geometry(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, {2, 2}, {1, 1}, {2, 2}), 1, x, 0, y),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{0.25, 1.25, 2.75, 7}));
    ASSERT_EQ(
        pooling_forward(geometry(CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, {2, 2}, {1, 1}, {2, 2}), 1, x, 0, y),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{1, 2.5, 5.5, 7}));
}

TEST(ReferencePooling, MaxIgnoresPaddingEvenWhenEverythingIsNegative) {
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 1, 2});
    x.set_values({-3, -5});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 1, 2});
    ASSERT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {1, 2}, {0, 1}, {1, 2}), 1, x, 0, y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), (std::vector<double>{-3, -5}));
}

TEST(ReferencePooling, WindowsWhollyInThePaddingGiveZero) {
    // One input with padding 1 and window 1: the eight border outputs see only padding.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 1, 1});
    x.set_values({-7});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 3, 3});
    for (cudnnPoolingMode_t mode : kModes) {
        SCOPED_TRACE(mode_name(mode));
        y.fill(kNaN);
        ASSERT_EQ(pooling_forward(geometry(mode, {1, 1}, {1, 1}, {1, 1}), 1, x, 0, y), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(y.values(), (std::vector<double>{0, 0, 0, 0, -7, 0, 0, 0, 0}));
    }
}

TEST(ReferencePooling, ThreeDimensionalByHand) {
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 2, 2, 2});
    x.set_values({1, 2, 3, 4, 5, 6, 8, 7});
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 1, 1, 1});
    ASSERT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {2, 2, 2}, {0, 0, 0}, {1, 1, 1}), 1, x, 0, y),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), std::vector<double>{8});
    ASSERT_EQ(pooling_forward(geometry(CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, {2, 2, 2}, {0, 0, 0}, {1, 1, 1}), 1,
                              x, 0, y),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y.values(), std::vector<double>{4.5});
    // Backward of max sends everything to the 8 at (1, 1, 0).
    HostTensor dy(CUDNN_DATA_DOUBLE, {1, 1, 1, 1, 1}), dx(CUDNN_DATA_DOUBLE, {1, 1, 2, 2, 2});
    dy.set_values({3});
    ASSERT_EQ(pooling_backward(geometry(CUDNN_POOLING_MAX, {2, 2, 2}, {0, 0, 0}, {1, 1, 1}), 1, dy, x, 0, dx),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{0, 0, 0, 0, 0, 0, 3, 0}));
}

// ---- NaN -----------------------------------------------------------------------------------------

TEST(ReferencePooling, MaxPropagatesNaNOnlyWhenAsked) {
    HostTensor x(CUDNN_DATA_FLOAT, {1, 1, 1, 4});
    x.set_values({1, kNaN, 3, 2});
    HostTensor y(CUDNN_DATA_FLOAT, {1, 1, 1, 2});
    for (cudnnPoolingMode_t mode : {CUDNN_POOLING_MAX, CUDNN_POOLING_MAX_DETERMINISTIC}) {
        SCOPED_TRACE(mode_name(mode));
        ASSERT_EQ(pooling_forward(geometry(mode, {1, 2}, {0, 0}, {1, 2}, CUDNN_NOT_PROPAGATE_NAN), 1, x, 0, y),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(y.values(), (std::vector<double>{1, 3}));
        ASSERT_EQ(pooling_forward(geometry(mode, {1, 2}, {0, 0}, {1, 2}, CUDNN_PROPAGATE_NAN), 1, x, 0, y),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> got = y.values();
        EXPECT_TRUE(std::isnan(got[0]));
        EXPECT_EQ(got[1], 3);
    }
    // A NaN after the maximum also wins when propagated.
    x.set_values({5, kNaN, 3, 2});
    ASSERT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {1, 2}, {0, 0}, {1, 2}, CUDNN_PROPAGATE_NAN), 1, x, 0, y),
              CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(std::isnan(y.values()[0]));
}

TEST(ReferencePooling, AverageCarriesNaN) {
    HostTensor x(CUDNN_DATA_FLOAT, {1, 1, 1, 2});
    x.set_values({1, kNaN});
    HostTensor y(CUDNN_DATA_FLOAT, {1, 1, 1, 1});
    ASSERT_EQ(
        pooling_forward(geometry(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, {1, 2}, {0, 0}, {1, 1}), 1, x, 0, y),
        CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(std::isnan(y.values()[0]));
}

TEST(ReferencePooling, MaxBackwardFollowsThePropagatedNaN) {
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 1, 3});
    x.set_values({4, kNaN, 9});
    HostTensor dy(CUDNN_DATA_DOUBLE, {1, 1, 1, 1}), dx(CUDNN_DATA_DOUBLE, {1, 1, 1, 3});
    dy.set_values({1});
    ASSERT_EQ(
        pooling_backward(geometry(CUDNN_POOLING_MAX, {1, 3}, {0, 0}, {1, 1}, CUDNN_PROPAGATE_NAN), 1, dy, x, 0, dx),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{0, 1, 0}));
    ASSERT_EQ(
        pooling_backward(geometry(CUDNN_POOLING_MAX, {1, 3}, {0, 0}, {1, 1}, CUDNN_NOT_PROPAGATE_NAN), 1, dy, x, 0, dx),
        CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{0, 0, 1}));
}

// ---- backward ------------------------------------------------------------------------------------

TEST(ReferencePooling, MaxBackwardRoutesToTheFirstMaximumInWindowOrder) {
    // Every element of the window is 2: the first (row-major) takes the whole gradient.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    x.fill(2);
    HostTensor dy(CUDNN_DATA_DOUBLE, {1, 1, 1, 1}), dx(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    dy.set_values({5});
    for (cudnnPoolingMode_t mode : {CUDNN_POOLING_MAX, CUDNN_POOLING_MAX_DETERMINISTIC}) {
        ASSERT_EQ(pooling_backward(geometry(mode, {2, 2}, {0, 0}, {1, 1}), 1, dy, x, 0, dx), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dx.values(), (std::vector<double>{5, 0, 0, 0})) << mode_name(mode);
    }
    // Ties after a larger value: still the first maximum.
    x.set_values({1, 3, 3, 3});
    ASSERT_EQ(pooling_backward(geometry(CUDNN_POOLING_MAX, {2, 2}, {0, 0}, {1, 1}), 1, dy, x, 0, dx),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{0, 5, 0, 0}));
}

TEST(ReferencePooling, OverlappingWindowsAccumulateTheirGradients) {
    // Windows of 2 with stride 1 over 1 3 2: both maxima are the 3, which collects dy0 + dy1.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 1, 3});
    x.set_values({1, 3, 2});
    HostTensor dy(CUDNN_DATA_DOUBLE, {1, 1, 1, 2}), dx(CUDNN_DATA_DOUBLE, {1, 1, 1, 3});
    dy.set_values({10, 20});
    ASSERT_EQ(pooling_backward(geometry(CUDNN_POOLING_MAX, {1, 2}, {0, 0}, {1, 1}), 1, dy, x, 0, dx),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{0, 30, 0}));
    // Averages: each window gives half of its dy to each of its two inputs.
    ASSERT_EQ(pooling_backward(geometry(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, {1, 2}, {0, 0}, {1, 1}), 1, dy, x,
                               0, dx),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{5, 15, 10}));
}

TEST(ReferencePooling, AverageBackwardDividesByTheForwardCount) {
    // The padded corner window of 1..9 (2x2, padding 1, stride 2) holds only x00.
    const HostTensor x = one_to_nine();
    HostTensor dy(CUDNN_DATA_DOUBLE, {1, 1, 2, 2}), dx(CUDNN_DATA_DOUBLE, {1, 1, 3, 3});
    dy.set_values({4, 0, 0, 0});
    ASSERT_EQ(pooling_backward(geometry(CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING, {2, 2}, {1, 1}, {2, 2}), 1, dy, x,
                               0, dx),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{1, 0, 0, 0, 0, 0, 0, 0, 0}));
    ASSERT_EQ(pooling_backward(geometry(CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, {2, 2}, {1, 1}, {2, 2}), 1, dy, x,
                               0, dx),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.values(), (std::vector<double>{4, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(ReferencePooling, MaxBackwardSumsToTheSumOfDy) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 20; ++trial) {
        const RandomPooling r = random_pooling(trial % 2 ? CUDNN_POOLING_MAX : CUDNN_POOLING_MAX_DETERMINISTIC, rng);
        SCOPED_TRACE(r.problem(seed) + " trial=" + std::to_string(trial));
        HostTensor x(CUDNN_DATA_DOUBLE, r.x_dims), dx(CUDNN_DATA_DOUBLE, r.x_dims), dy(CUDNN_DATA_DOUBLE, r.y_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        ASSERT_EQ(pooling_backward(r.pool, 1, dy, x, 0, dx), CUDNN_STATUS_SUCCESS) << librednn::last_failure_reason();
        EXPECT_NEAR(sum_of(dx), sum_of(dy), 1e-12);
    }
}

TEST(ReferencePooling, BackwardIsTheAdjointOfTheForward) {
    // Averages are linear, and max is linear for fixed x (y picks x at the argmax; distinct random
    // values make the argmax unique): <pool(x), dy> == <x, pool_backward(dy)> in every mode.
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (int trial = 0; trial < 40; ++trial) {
        const RandomPooling r = random_pooling(kModes[trial % 4], rng);
        SCOPED_TRACE(r.problem(seed) + " trial=" + std::to_string(trial));
        HostTensor x(CUDNN_DATA_DOUBLE, r.x_dims), dx(CUDNN_DATA_DOUBLE, r.x_dims);
        HostTensor y(CUDNN_DATA_DOUBLE, r.y_dims), dy(CUDNN_DATA_DOUBLE, r.y_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        ASSERT_EQ(pooling_forward(r.pool, 1, x, 0, y), CUDNN_STATUS_SUCCESS) << librednn::last_failure_reason();
        ASSERT_EQ(pooling_backward(r.pool, 1, dy, x, 0, dx), CUDNN_STATUS_SUCCESS);
        const double forward_side = dot(y, dy), backward_side = dot(x, dx);
        EXPECT_NEAR(forward_side, backward_side, 1e-10 * std::max(1.0, std::abs(forward_side)));
    }
}

// ---- alpha / beta and layouts --------------------------------------------------------------------

TEST(ReferencePooling, BetaZeroNeverReadsTheOutput) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnPoolingMode_t mode : kModes) {
        const RandomPooling r = random_pooling(mode, rng);
        SCOPED_TRACE(r.problem(seed));
        HostTensor x(CUDNN_DATA_FLOAT, r.x_dims), dy(CUDNN_DATA_FLOAT, r.y_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        HostTensor plain_y = dy, plain_dx = x, y = dy, dx = x;
        ASSERT_EQ(pooling_forward(r.pool, 1, x, 0, plain_y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_backward(r.pool, 1, dy, x, 0, plain_dx), CUDNN_STATUS_SUCCESS);
        y.fill(kNaN);
        dx.fill(kNaN);
        ASSERT_EQ(pooling_forward(r.pool, -2, x, 0, y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_backward(r.pool, -2, dy, x, 0, dx), CUDNN_STATUS_SUCCESS);
        const std::vector<double> got_y = y.values(), want_y = plain_y.values();
        for (size_t i = 0; i < got_y.size(); ++i) ASSERT_EQ(got_y[i], -2 * want_y[i]) << i;
        const std::vector<double> got_dx = dx.values(), want_dx = plain_dx.values();
        for (size_t i = 0; i < got_dx.size(); ++i) ASSERT_EQ(got_dx[i], -2 * want_dx[i]) << i;
    }
}

TEST(ReferencePooling, AlphaAndBetaBlendWithTheOldOutput) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnPoolingMode_t mode : kModes) {
        const RandomPooling r = random_pooling(mode, rng);
        SCOPED_TRACE(r.problem(seed));
        HostTensor x(CUDNN_DATA_DOUBLE, r.x_dims), dy(CUDNN_DATA_DOUBLE, r.y_dims);
        HostTensor old_y(CUDNN_DATA_DOUBLE, r.y_dims), old_dx(CUDNN_DATA_DOUBLE, r.x_dims);
        for (HostTensor *t : {&x, &dy, &old_y, &old_dx}) fill_random(*t, rng);
        HostTensor plain_y = old_y, plain_dx = old_dx, y = old_y, dx = old_dx;
        ASSERT_EQ(pooling_forward(r.pool, 1, x, 0, plain_y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_backward(r.pool, 1, dy, x, 0, plain_dx), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_forward(r.pool, 0.5, x, 3, y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_backward(r.pool, 0.5, dy, x, 3, dx), CUDNN_STATUS_SUCCESS);
        for_each_index(r.y_dims, [&](const Index &i) {
            EXPECT_NEAR(y.read(i), 0.5 * plain_y.read(i) + 3 * old_y.read(i), 1e-12);
        });
        for_each_index(r.x_dims, [&](const Index &i) {
            EXPECT_NEAR(dx.read(i), 0.5 * plain_dx.read(i) + 3 * old_dx.read(i), 1e-12);
        });
    }
}

TEST(ReferencePooling, ChannelsLastGivesTheSameNumbersAsNchw) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnPoolingMode_t mode : kModes) {
        const RandomPooling r = random_pooling(mode, rng);
        SCOPED_TRACE(r.problem(seed));
        HostTensor x(CUDNN_DATA_HALF, r.x_dims), dy(CUDNN_DATA_HALF, r.y_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        HostTensor x_last(CUDNN_DATA_HALF, r.x_dims, channels_last_strides(r.x_dims));
        HostTensor dy_last(CUDNN_DATA_HALF, r.y_dims, channels_last_strides(r.y_dims));
        x_last.set_values(x.values());
        dy_last.set_values(dy.values());
        HostTensor y = dy, y_last = dy_last, dx = x, dx_last = x_last;
        ASSERT_EQ(pooling_forward(r.pool, 1, x, 0, y), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_forward(r.pool, 1, x_last, 0, y_last), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(y.values(), y_last.values());
        ASSERT_EQ(pooling_backward(r.pool, 1, dy, x, 0, dx), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling_backward(r.pool, 1, dy_last, x_last, 0, dx_last), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dx.values(), dx_last.values());
    }
}

// ---- rejections ----------------------------------------------------------------------------------

TEST(ReferencePooling, RejectsDisagreeingShapesWithReasonAndWritesNothing) {
    const HostTensor x = one_to_nine();
    HostTensor y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    y.fill(42);
    EXPECT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {2, 2}, {0, 0}, {1, 1}), 1, x, 0, y),
              CUDNN_STATUS_SUCCESS);  // 3x3 with 2x2 windows, stride 1: 2x2
    y.fill(42);
    EXPECT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {2, 2}, {0, 0}, {2, 2}), 1, x, 0, y), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("y is 1x1x2x2; pooling x 1x1x3x3 produces 1x1x1x1"),
              std::string::npos)
        << librednn::last_failure_reason();
    EXPECT_EQ(y.values(), std::vector<double>(4, 42));
    EXPECT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {4, 4}, {0, 0}, {1, 1}), 1, x, 0, y), CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("smaller than the window 4"), std::string::npos);
    EXPECT_EQ(pooling_forward(geometry(CUDNN_POOLING_MAX, {2}, {0}, {1}), 1, x, 0, y), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(pooling_forward(geometry(static_cast<cudnnPoolingMode_t>(9), {2, 2}, {0, 0}, {1, 1}), 1, x, 0, y),
              CUDNN_STATUS_BAD_PARAM);
    HostTensor wrong_x(CUDNN_DATA_DOUBLE, {1, 1, 3, 4}), dy(CUDNN_DATA_DOUBLE, {1, 1, 2, 2}), dx = x;
    EXPECT_EQ(pooling_backward(geometry(CUDNN_POOLING_MAX, {2, 2}, {0, 0}, {1, 1}), 1, dy, wrong_x, 0, dx),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("x is 1x1x3x4; it must have the dims of dx, 1x1x3x3"),
              std::string::npos);
}

}  // namespace
