// The reference batch normalisation: normalised statistics, hand-computed running and saved
// statistics, gradients against finite differences, alpha/beta blending, layouts through strides.
#include "problem/problem_string.hpp"
#include "reference/batch_norm.hpp"
#include "reference/tensor_view.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <functional>
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

void fill_random(HostTensor &tensor, std::mt19937 &rng, double low = -1, double high = 1) {
    std::uniform_real_distribution<double> uniform(low, high);
    for_each_index(tensor.view().dims, [&](const Index &i) { tensor.write(i, uniform(rng)); });
}

double dot(const HostTensor &a, const HostTensor &b) {
    const std::vector<double> u = a.values(), v = b.values();
    double sum = 0;
    for (size_t i = 0; i < u.size(); ++i) sum += u[i] * v[i];
    return sum;
}

const char *mode_name(cudnnBatchNormMode_t mode) {
    return mode == CUDNN_BATCHNORM_PER_ACTIVATION ? "per_activation" : "spatial";
}

std::string problem(cudnnBatchNormMode_t mode, const std::vector<int64_t> &x_dims, uint32_t seed) {
    ProblemString p;
    p.set("op", "bn");
    p.set("mode", mode_name(mode));
    p.set_dims("x", x_dims);
    p.set("seed", static_cast<long long>(seed));
    return p.to_string();
}

// x dims of rank 4 or 5 with a few values per parameter element.
std::vector<int64_t> random_dims(std::mt19937 &rng) {
    auto pick = [&](int64_t low, int64_t high) { return std::uniform_int_distribution<int64_t>(low, high)(rng); };
    std::vector<int64_t> dims = {pick(2, 3), pick(1, 3), pick(1, 3), pick(2, 4)};
    if (pick(0, 1)) dims.push_back(pick(1, 2));
    return dims;
}

// Calls check(values) with the x values each parameter element normalises, for a packed x.
template <typename Check>
void for_each_group(cudnnBatchNormMode_t mode, const HostTensor &x, Check check) {
    const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, x.view().dims);
    for_each_index(parameter_dims, [&](const Index &p) {
        std::vector<double> values;
        for_each_index(x.view().dims, [&](const Index &i) {
            for (size_t axis = 0; axis < i.size(); ++axis) {
                if (parameter_dims[axis] != 1 && i[axis] != p[axis]) return;
            }
            values.push_back(x.read(i));
        });
        check(values);
    });
}

const cudnnBatchNormMode_t kModes[] = {CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_PER_ACTIVATION};

// ---- forward -------------------------------------------------------------------------------------

TEST(ReferenceBatchNorm, TrainingOutputHasZeroMeanAndUnitVariancePerParameter) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const double epsilon = 1e-5;
    for (cudnnBatchNormMode_t mode : kModes) {
        const std::vector<int64_t> dims = random_dims(rng);
        SCOPED_TRACE(problem(mode, dims, seed));
        const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
        HostTensor x(CUDNN_DATA_DOUBLE, dims), y(CUDNN_DATA_DOUBLE, dims);
        HostTensor scale(CUDNN_DATA_DOUBLE, parameter_dims), bias(CUDNN_DATA_DOUBLE, parameter_dims);
        fill_random(x, rng, 2, 5);  // off-centre, so a missing mean subtraction shows
        scale.fill(1);
        ASSERT_EQ(
            batch_norm_forward_training(mode, 1, 0, x, y, scale, bias, 1, nullptr, nullptr, epsilon, nullptr, nullptr),
            CUDNN_STATUS_SUCCESS);
        std::vector<double> input_variances;
        for_each_group(mode, x, [&](const std::vector<double> &values) {
            double mean = 0, variance = 0;
            for (double v : values) mean += v / static_cast<double>(values.size());
            for (double v : values) variance += (v - mean) * (v - mean) / static_cast<double>(values.size());
            input_variances.push_back(variance);
        });
        size_t group = 0;
        for_each_group(mode, y, [&](const std::vector<double> &values) {
            double mean = 0, variance = 0;
            for (double v : values) mean += v / static_cast<double>(values.size());
            for (double v : values) variance += (v - mean) * (v - mean) / static_cast<double>(values.size());
            const double input_variance = input_variances[group++];
            EXPECT_NEAR(mean, 0, 1e-12);
            // Normalised by variance + epsilon: 1 up to epsilon / variance.
            EXPECT_NEAR(variance, input_variance / (input_variance + epsilon), 1e-12);
            EXPECT_NEAR(variance, 1, epsilon / input_variance + 1e-12);
        });
    }
}

TEST(ReferenceBatchNorm, TrainingStatisticsByHand) {
    // One channel holding 1 2 3 4: mean 2.5, biased variance 1.25, unbiased 5/3.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 1, 2, 2}), y(CUDNN_DATA_DOUBLE, {1, 1, 2, 2});
    x.set_values({1, 2, 3, 4});
    HostTensor scale(CUDNN_DATA_DOUBLE, {1, 1, 1, 1}), bias(CUDNN_DATA_DOUBLE, {1, 1, 1, 1});
    scale.set_values({2});
    bias.set_values({1});
    HostTensor running_mean(CUDNN_DATA_DOUBLE, {1, 1, 1, 1}), running_variance(CUDNN_DATA_DOUBLE, {1, 1, 1, 1});
    running_mean.set_values({2});
    running_variance.set_values({3});
    HostTensor saved_mean(CUDNN_DATA_DOUBLE, {1, 1, 1, 1}), saved_inv_variance(CUDNN_DATA_DOUBLE, {1, 1, 1, 1});
    const double epsilon = 1e-3, factor = 0.25;
    ASSERT_EQ(
        batch_norm_forward_training(CUDNN_BATCHNORM_SPATIAL, 1, 0, x, y, scale, bias, factor, &running_mean.view(),
                                    &running_variance.view(), epsilon, &saved_mean.view(), &saved_inv_variance.view()),
        CUDNN_STATUS_SUCCESS);
    const double inv_std = 1 / std::sqrt(1.25 + epsilon);
    const std::vector<double> got = y.values();
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(got[i], 2 * (i + 1 - 2.5) * inv_std + 1, 1e-14);
    EXPECT_EQ(saved_mean.values(), std::vector<double>{2.5});
    EXPECT_NEAR(saved_inv_variance.values()[0], inv_std, 1e-15);
    EXPECT_NEAR(running_mean.values()[0], 0.75 * 2 + 0.25 * 2.5, 1e-15);
    EXPECT_NEAR(running_variance.values()[0], 0.75 * 3 + 0.25 * 5.0 / 3, 1e-15);
}

TEST(ReferenceBatchNorm, PerActivationNormalisesEachPositionOverTheBatch) {
    // Two images of one channel, 1x2: position 0 holds {1, 3}, position 1 holds {10, 30}.
    HostTensor x(CUDNN_DATA_DOUBLE, {2, 1, 1, 2}), y(CUDNN_DATA_DOUBLE, {2, 1, 1, 2});
    x.set_values({1, 10, 3, 30});
    HostTensor scale(CUDNN_DATA_DOUBLE, {1, 1, 1, 2}), bias(CUDNN_DATA_DOUBLE, {1, 1, 1, 2});
    scale.fill(1);
    HostTensor saved_mean(CUDNN_DATA_DOUBLE, {1, 1, 1, 2}), saved_inv_variance(CUDNN_DATA_DOUBLE, {1, 1, 1, 2});
    ASSERT_EQ(batch_norm_forward_training(CUDNN_BATCHNORM_PER_ACTIVATION, 1, 0, x, y, scale, bias, 1, nullptr, nullptr,
                                          0, &saved_mean.view(), &saved_inv_variance.view()),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(saved_mean.values(), (std::vector<double>{2, 20}));
    EXPECT_EQ(saved_inv_variance.values(), (std::vector<double>{1, 0.1}));  // variances 1 and 100
    EXPECT_EQ(y.values(), (std::vector<double>{-1, -1, 1, 1}));
}

TEST(ReferenceBatchNorm, FactorOneReplacesTheRunningStatisticsWithoutReadingThem) {
    HostTensor x(CUDNN_DATA_FLOAT, {2, 1, 1, 1}), y(CUDNN_DATA_FLOAT, {2, 1, 1, 1});
    x.set_values({1, 4});
    HostTensor scale(CUDNN_DATA_FLOAT, {1, 1, 1, 1}), bias(CUDNN_DATA_FLOAT, {1, 1, 1, 1});
    HostTensor running_mean(CUDNN_DATA_FLOAT, {1, 1, 1, 1}), running_variance(CUDNN_DATA_FLOAT, {1, 1, 1, 1});
    running_mean.fill(kNaN);
    running_variance.fill(kNaN);
    ASSERT_EQ(batch_norm_forward_training(CUDNN_BATCHNORM_SPATIAL, 1, 0, x, y, scale, bias, 1, &running_mean.view(),
                                          &running_variance.view(), 1e-5, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(running_mean.values(), std::vector<double>{2.5});
    EXPECT_EQ(running_variance.values(), std::vector<double>{4.5});  // unbiased: (2.25 + 2.25) / 1
}

TEST(ReferenceBatchNorm, InferenceByHand) {
    // y = scale * (x - mean) / sqrt(variance + epsilon) + bias per channel, here with epsilon 1.
    HostTensor x(CUDNN_DATA_DOUBLE, {1, 2, 1, 2}), y(CUDNN_DATA_DOUBLE, {1, 2, 1, 2});
    x.set_values({3, 5, 3, 5});
    HostTensor scale(CUDNN_DATA_DOUBLE, {1, 2, 1, 1}), bias(CUDNN_DATA_DOUBLE, {1, 2, 1, 1});
    HostTensor mean(CUDNN_DATA_DOUBLE, {1, 2, 1, 1}), variance(CUDNN_DATA_DOUBLE, {1, 2, 1, 1});
    scale.set_values({2, 1});
    bias.set_values({0.5, -1});
    mean.set_values({1, 3});
    variance.set_values({3, 15});
    ASSERT_EQ(batch_norm_forward_inference(CUDNN_BATCHNORM_SPATIAL, 1, 0, x, y, scale, bias, mean, variance, 1),
              CUDNN_STATUS_SUCCESS);
    // Channel 0: 2 * (3 - 1) / 2 + 0.5 = 2.5 and 2 * 4 / 2 + 0.5 = 4.5; channel 1: 0 / 4 - 1 and 2 / 4 - 1.
    EXPECT_EQ(y.values(), (std::vector<double>{2.5, 4.5, -1, -0.5}));
}

TEST(ReferenceBatchNorm, InferenceWithTheBatchStatisticsMatchesTraining) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const double epsilon = 1e-3;
    for (cudnnBatchNormMode_t mode : kModes) {
        const std::vector<int64_t> dims = random_dims(rng);
        SCOPED_TRACE(problem(mode, dims, seed));
        const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
        HostTensor x(CUDNN_DATA_DOUBLE, dims), trained(CUDNN_DATA_DOUBLE, dims), inferred(CUDNN_DATA_DOUBLE, dims);
        HostTensor scale(CUDNN_DATA_DOUBLE, parameter_dims), bias(CUDNN_DATA_DOUBLE, parameter_dims);
        HostTensor saved_mean(CUDNN_DATA_DOUBLE, parameter_dims), saved_inv(CUDNN_DATA_DOUBLE, parameter_dims);
        fill_random(x, rng);
        fill_random(scale, rng);
        fill_random(bias, rng);
        ASSERT_EQ(batch_norm_forward_training(mode, 1, 0, x, trained, scale, bias, 1, nullptr, nullptr, epsilon,
                                              &saved_mean.view(), &saved_inv.view()),
                  CUDNN_STATUS_SUCCESS);
        HostTensor variance(CUDNN_DATA_DOUBLE, parameter_dims);  // biased: 1 / inv^2 - epsilon
        for_each_index(parameter_dims, [&](const Index &p) {
            variance.write(p, 1 / (saved_inv.read(p) * saved_inv.read(p)) - epsilon);
        });
        ASSERT_EQ(batch_norm_forward_inference(mode, 1, 0, x, inferred, scale, bias, saved_mean, variance, epsilon),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> a = trained.values(), b = inferred.values();
        for (size_t i = 0; i < a.size(); ++i) EXPECT_NEAR(a[i], b[i], 1e-12) << i;
    }
}

TEST(ReferenceBatchNorm, RunningAndSavedStatisticsComeInPairs) {
    HostTensor x(CUDNN_DATA_FLOAT, {2, 1, 1, 1}), y(CUDNN_DATA_FLOAT, {2, 1, 1, 1});
    HostTensor p(CUDNN_DATA_FLOAT, {1, 1, 1, 1});
    EXPECT_EQ(batch_norm_forward_training(CUDNN_BATCHNORM_SPATIAL, 1, 0, x, y, p, p, 1, &p.view(), nullptr, 1e-5,
                                          nullptr, nullptr),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("running_mean is given but running_variance is null"),
              std::string::npos)
        << librednn::last_failure_reason();
    EXPECT_EQ(batch_norm_forward_training(CUDNN_BATCHNORM_SPATIAL, 1, 0, x, y, p, p, 1, nullptr, nullptr, 1e-5, nullptr,
                                          &p.view()),
              CUDNN_STATUS_BAD_PARAM);
}

TEST(ReferenceBatchNorm, RejectsParametersOfTheWrongModeWithReason) {
    HostTensor x(CUDNN_DATA_FLOAT, {2, 3, 4, 4}), y(CUDNN_DATA_FLOAT, {2, 3, 4, 4});
    HostTensor per_activation(CUDNN_DATA_FLOAT, {1, 3, 4, 4});
    y.fill(42);
    EXPECT_EQ(batch_norm_forward_inference(CUDNN_BATCHNORM_SPATIAL, 1, 0, x, y, per_activation, per_activation,
                                           per_activation, per_activation, 1e-5),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_NE(librednn::last_failure_reason().find("scale is 1x3x4x4; it must be 1x3x1x1"), std::string::npos)
        << librednn::last_failure_reason();
    EXPECT_EQ(y.values(), std::vector<double>(96, 42));
    EXPECT_EQ(batch_norm_forward_inference(static_cast<cudnnBatchNormMode_t>(7), 1, 0, x, y, per_activation,
                                           per_activation, per_activation, per_activation, 1e-5),
              CUDNN_STATUS_BAD_PARAM);
}

// ---- backward ------------------------------------------------------------------------------------

// L(x, scale, bias) = <training_forward(x), dy>, whose gradients batch_norm_backward computes.
double loss(cudnnBatchNormMode_t mode, const HostTensor &x, const HostTensor &scale, const HostTensor &bias,
            const HostTensor &dy, double epsilon) {
    HostTensor y = dy;
    EXPECT_EQ(
        batch_norm_forward_training(mode, 1, 0, x, y, scale, bias, 1, nullptr, nullptr, epsilon, nullptr, nullptr),
        CUDNN_STATUS_SUCCESS);
    return dot(y, dy);
}

// Central difference of loss() in element `i` of `tensor` (one of x, scale, bias).
double numeric_gradient(HostTensor *tensor, const Index &i, const std::function<double()> &evaluate) {
    const double h = 1e-5, original = tensor->read(i);
    tensor->write(i, original + h);
    const double up = evaluate();
    tensor->write(i, original - h);
    const double down = evaluate();
    tensor->write(i, original);
    return (up - down) / (2 * h);
}

TEST(ReferenceBatchNorm, BackwardMatchesFiniteDifferences) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const double epsilon = 1e-3;
    for (cudnnBatchNormMode_t mode : kModes) {
        for (bool use_saved : {false, true}) {
            const std::vector<int64_t> dims = random_dims(rng);
            SCOPED_TRACE(problem(mode, dims, seed) + (use_saved ? " saved=1" : " saved=0"));
            const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
            HostTensor x(CUDNN_DATA_DOUBLE, dims), dy(CUDNN_DATA_DOUBLE, dims), dx(CUDNN_DATA_DOUBLE, dims);
            HostTensor scale(CUDNN_DATA_DOUBLE, parameter_dims), bias(CUDNN_DATA_DOUBLE, parameter_dims);
            HostTensor dscale(CUDNN_DATA_DOUBLE, parameter_dims), dbias(CUDNN_DATA_DOUBLE, parameter_dims);
            HostTensor saved_mean(CUDNN_DATA_DOUBLE, parameter_dims), saved_inv(CUDNN_DATA_DOUBLE, parameter_dims);
            fill_random(x, rng);
            fill_random(dy, rng);
            fill_random(scale, rng, 0.5, 2);
            fill_random(bias, rng);
            HostTensor y = x;
            ASSERT_EQ(batch_norm_forward_training(mode, 1, 0, x, y, scale, bias, 1, nullptr, nullptr, epsilon,
                                                  &saved_mean.view(), &saved_inv.view()),
                      CUDNN_STATUS_SUCCESS);
            ASSERT_EQ(
                batch_norm_backward(mode, 1, 0, 1, 0, x, dy, dx, scale, dscale, dbias, epsilon,
                                    use_saved ? &saved_mean.view() : nullptr, use_saved ? &saved_inv.view() : nullptr),
                CUDNN_STATUS_SUCCESS);
            const auto evaluate = [&] { return loss(mode, x, scale, bias, dy, epsilon); };
            for_each_index(dims, [&](const Index &i) {
                EXPECT_NEAR(dx.read(i), numeric_gradient(&x, i, evaluate), 1e-6) << "dx at " << dims_to_string(i);
            });
            for_each_index(parameter_dims, [&](const Index &p) {
                EXPECT_NEAR(dscale.read(p), numeric_gradient(&scale, p, evaluate), 1e-6);
                EXPECT_NEAR(dbias.read(p), numeric_gradient(&bias, p, evaluate), 1e-6);
            });
        }
    }
}

TEST(ReferenceBatchNorm, DataGradientIsOrthogonalToConstantsAndToXHat) {
    // y does not change when x shifts or scales uniformly per group, so dx sums to 0 against both.
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnBatchNormMode_t mode : kModes) {
        const std::vector<int64_t> dims = random_dims(rng);
        SCOPED_TRACE(problem(mode, dims, seed));
        const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
        HostTensor x(CUDNN_DATA_DOUBLE, dims), dy(CUDNN_DATA_DOUBLE, dims), dx(CUDNN_DATA_DOUBLE, dims);
        HostTensor scale(CUDNN_DATA_DOUBLE, parameter_dims), dscale(CUDNN_DATA_DOUBLE, parameter_dims);
        HostTensor dbias(CUDNN_DATA_DOUBLE, parameter_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        fill_random(scale, rng);
        ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x, dy, dx, scale, dscale, dbias, 0, nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        // Per group (in parameter order): x, dy and the scale.
        std::vector<std::vector<double>> x_groups, dy_groups;
        for_each_group(mode, x, [&](const std::vector<double> &values) { x_groups.push_back(values); });
        for_each_group(mode, dy, [&](const std::vector<double> &values) { dy_groups.push_back(values); });
        std::vector<double> scales;
        for_each_index(parameter_dims, [&](const Index &p) { scales.push_back(scale.read(p)); });
        size_t group = 0;
        for_each_group(mode, dx, [&](const std::vector<double> &gradients) {
            const std::vector<double> &xs = x_groups[group], &dys = dy_groups[group];
            const double n = static_cast<double>(xs.size());
            double mean = 0, variance = 0, dy_sum = 0, x_max = 0;
            for (double v : xs) mean += v / n;
            for (double v : xs) variance += (v - mean) * (v - mean) / n;
            for (double d : dys) dy_sum += std::fabs(d);
            for (double v : xs) x_max = std::max(x_max, std::fabs(v));
            // dx = (scale / sigma) (dy - mean(dy) - x_hat mean(dy x_hat)) is made of terms of size
            // |scale| / sigma * |dy|, and x_hat = (x - mean) / sigma carries a relative rounding error of
            // about |x| / sigma ulps (the subtraction cancels when the group's values are close). The sums
            // below add n elements. So the bound scales with the group's conditioning (epsilon is 0 here:
            // sigma may be tiny, as with groups of two close values), not with an absolute constant.
            const double sigma = std::sqrt(variance);
            const double terms = std::fabs(scales[group]) / sigma * dy_sum * (1 + x_max / sigma);
            const double bound = 16 * n * std::numeric_limits<double>::epsilon() * terms;
            double sum = 0, against_x = 0;
            for (size_t k = 0; k < gradients.size(); ++k) {
                sum += gradients[k];
                against_x += gradients[k] * xs[k];
            }
            EXPECT_NEAR(sum, 0, bound) << "group " << group;
            EXPECT_NEAR(against_x, 0, bound * x_max) << "group " << group;
            ++group;
        });
    }
}

// ---- alpha / beta --------------------------------------------------------------------------------

TEST(ReferenceBatchNorm, BetaZeroNeverReadsTheOutputs) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnBatchNormMode_t mode : kModes) {
        const std::vector<int64_t> dims = random_dims(rng);
        SCOPED_TRACE(problem(mode, dims, seed));
        const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
        HostTensor x(CUDNN_DATA_FLOAT, dims), dy(CUDNN_DATA_FLOAT, dims);
        HostTensor scale(CUDNN_DATA_FLOAT, parameter_dims), bias(CUDNN_DATA_FLOAT, parameter_dims);
        HostTensor mean(CUDNN_DATA_FLOAT, parameter_dims), variance(CUDNN_DATA_FLOAT, parameter_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        fill_random(scale, rng);
        fill_random(bias, rng);
        fill_random(mean, rng);
        fill_random(variance, rng, 0.5, 2);

        HostTensor plain_inference = x, plain_training = x, plain_dx = x;
        HostTensor plain_dscale = scale, plain_dbias = scale;
        ASSERT_EQ(batch_norm_forward_inference(mode, 1, 0, x, plain_inference, scale, bias, mean, variance, 1e-5),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(batch_norm_forward_training(mode, 1, 0, x, plain_training, scale, bias, 1, nullptr, nullptr, 1e-5,
                                              nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x, dy, plain_dx, scale, plain_dscale, plain_dbias, 1e-5,
                                      nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);

        HostTensor inference = x, training = x, dx = x, dscale = scale, dbias = scale;
        for (HostTensor *poisoned : {&inference, &training, &dx, &dscale, &dbias}) poisoned->fill(kNaN);
        ASSERT_EQ(batch_norm_forward_inference(mode, 2, 0, x, inference, scale, bias, mean, variance, 1e-5),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(batch_norm_forward_training(mode, 2, 0, x, training, scale, bias, 1, nullptr, nullptr, 1e-5, nullptr,
                                              nullptr),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(batch_norm_backward(mode, 2, 0, 0.5, 0, x, dy, dx, scale, dscale, dbias, 1e-5, nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        struct Expectation {
            const HostTensor *got, *plain;
            double alpha;
        };
        for (const Expectation &e : {Expectation{&inference, &plain_inference, 2},
                                     {&training, &plain_training, 2},
                                     {&dx, &plain_dx, 2},
                                     {&dscale, &plain_dscale, 0.5},
                                     {&dbias, &plain_dbias, 0.5}}) {
            const std::vector<double> got = e.got->values(), plain = e.plain->values();
            for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(got[i], e.alpha * plain[i]) << i;
        }
    }
}

TEST(ReferenceBatchNorm, AlphaAndBetaBlendDataAndParameterGradientsSeparately) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    const cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL;
    const std::vector<int64_t> dims = random_dims(rng);
    SCOPED_TRACE(problem(mode, dims, seed));
    const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
    HostTensor x(CUDNN_DATA_DOUBLE, dims), dy(CUDNN_DATA_DOUBLE, dims), old_dx(CUDNN_DATA_DOUBLE, dims);
    HostTensor scale(CUDNN_DATA_DOUBLE, parameter_dims), bias(CUDNN_DATA_DOUBLE, parameter_dims);
    HostTensor old_dscale(CUDNN_DATA_DOUBLE, parameter_dims), old_dbias(CUDNN_DATA_DOUBLE, parameter_dims);
    for (HostTensor *t : {&x, &dy, &old_dx, &scale, &bias, &old_dscale, &old_dbias}) fill_random(*t, rng);

    HostTensor plain_dx = old_dx, plain_dscale = old_dscale, plain_dbias = old_dbias;
    ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x, dy, plain_dx, scale, plain_dscale, plain_dbias, 1e-5, nullptr,
                                  nullptr),
              CUDNN_STATUS_SUCCESS);
    HostTensor dx = old_dx, dscale = old_dscale, dbias = old_dbias;
    ASSERT_EQ(batch_norm_backward(mode, 2, 0.5, 3, -1, x, dy, dx, scale, dscale, dbias, 1e-5, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    for_each_index(
        dims, [&](const Index &i) { EXPECT_NEAR(dx.read(i), 2 * plain_dx.read(i) + 0.5 * old_dx.read(i), 1e-12); });
    for_each_index(parameter_dims, [&](const Index &p) {
        EXPECT_NEAR(dscale.read(p), 3 * plain_dscale.read(p) - old_dscale.read(p), 1e-12);
        EXPECT_NEAR(dbias.read(p), 3 * plain_dbias.read(p) - old_dbias.read(p), 1e-12);
    });

    HostTensor old_y(CUDNN_DATA_DOUBLE, dims), plain_y(CUDNN_DATA_DOUBLE, dims);
    fill_random(old_y, rng);
    HostTensor y = old_y;
    ASSERT_EQ(
        batch_norm_forward_training(mode, 1, 0, x, plain_y, scale, bias, 1, nullptr, nullptr, 1e-5, nullptr, nullptr),
        CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(
        batch_norm_forward_training(mode, 0.25, 2, x, y, scale, bias, 1, nullptr, nullptr, 1e-5, nullptr, nullptr),
        CUDNN_STATUS_SUCCESS);
    for_each_index(dims,
                   [&](const Index &i) { EXPECT_NEAR(y.read(i), 0.25 * plain_y.read(i) + 2 * old_y.read(i), 1e-12); });
}

// ---- layouts -------------------------------------------------------------------------------------

TEST(ReferenceBatchNorm, ChannelsLastGivesTheSameNumbersAsNchw) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnBatchNormMode_t mode : kModes) {
        const std::vector<int64_t> dims = random_dims(rng);
        SCOPED_TRACE(problem(mode, dims, seed));
        const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
        HostTensor x(CUDNN_DATA_FLOAT, dims), dy(CUDNN_DATA_FLOAT, dims);
        HostTensor scale(CUDNN_DATA_FLOAT, parameter_dims), bias(CUDNN_DATA_FLOAT, parameter_dims);
        fill_random(x, rng);
        fill_random(dy, rng);
        fill_random(scale, rng);
        fill_random(bias, rng);
        HostTensor x_last(CUDNN_DATA_FLOAT, dims, channels_last_strides(dims));
        HostTensor dy_last(CUDNN_DATA_FLOAT, dims, channels_last_strides(dims));
        x_last.set_values(x.values());
        dy_last.set_values(dy.values());

        HostTensor y = x, y_last = x_last, dx = x, dx_last = x_last;
        HostTensor dscale = scale, dbias = scale, dscale_last = scale, dbias_last = scale;
        ASSERT_EQ(
            batch_norm_forward_training(mode, 1, 0, x, y, scale, bias, 1, nullptr, nullptr, 1e-5, nullptr, nullptr),
            CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(batch_norm_forward_training(mode, 1, 0, x_last, y_last, scale, bias, 1, nullptr, nullptr, 1e-5,
                                              nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(y.values(), y_last.values());
        ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x, dy, dx, scale, dscale, dbias, 1e-5, nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x_last, dy_last, dx_last, scale, dscale_last, dbias_last, 1e-5,
                                      nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dx.values(), dx_last.values());
        EXPECT_EQ(dscale.values(), dscale_last.values());
        EXPECT_EQ(dbias.values(), dbias_last.values());
    }
}

TEST(ReferenceBatchNorm, InPlaceGivesTheSameNumbersAsOutOfPlace) {
    const uint32_t seed = test_seed();
    std::mt19937 rng(seed);
    for (cudnnBatchNormMode_t mode : kModes) {
        const std::vector<int64_t> dims = random_dims(rng);
        SCOPED_TRACE(problem(mode, dims, seed));
        const std::vector<int64_t> parameter_dims = batch_norm_parameter_dims(mode, dims);
        HostTensor x(CUDNN_DATA_DOUBLE, dims), dy(CUDNN_DATA_DOUBLE, dims);
        HostTensor scale(CUDNN_DATA_DOUBLE, parameter_dims), bias(CUDNN_DATA_DOUBLE, parameter_dims);
        for (HostTensor *t : {&x, &dy, &scale, &bias}) fill_random(*t, rng);
        HostTensor y = x, dx = x, dscale = scale, dbias = scale;
        ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x, dy, dx, scale, dscale, dbias, 1e-5, nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        HostTensor dy_then_dx = dy;
        ASSERT_EQ(batch_norm_backward(mode, 1, 0, 1, 0, x, dy_then_dx, dy_then_dx, scale, dscale, dbias, 1e-5, nullptr,
                                      nullptr),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(dy_then_dx.values(), dx.values());
        ASSERT_EQ(
            batch_norm_forward_training(mode, 1, 0, x, y, scale, bias, 1, nullptr, nullptr, 1e-5, nullptr, nullptr),
            CUDNN_STATUS_SUCCESS);
        HostTensor x_then_y = x;
        ASSERT_EQ(batch_norm_forward_training(mode, 1, 0, x_then_y, x_then_y, scale, bias, 1, nullptr, nullptr, 1e-5,
                                              nullptr, nullptr),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(x_then_y.values(), y.values());
    }
}

}  // namespace
