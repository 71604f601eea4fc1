// cudnnCTCLoss and cudnnCTCLoss_v8 against the reference on random problems (labels with repeats that need
// a blank between them, empty labels, impossible labels, short inputs, strided layouts, both modes, both
// algorithms, costs only), gradients against central differences of the reference's cost, a hand-worked
// case, the impossible-label rules, determinism, the workspace queries, the rejections and problem strings.
#include "reference/ctc_loss.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/ctc_loss/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace {

using namespace librednn;
using namespace librednn::test;

constexpr double kDoubleRoundoff = 0x1p-53;

class CtcDescriptor {
public:
    CtcDescriptor() { EXPECT_EQ(cudnnCreateCTCLossDescriptor(&desc_), CUDNN_STATUS_SUCCESS); }
    ~CtcDescriptor() { cudnnDestroyCTCLossDescriptor(desc_); }
    CtcDescriptor(const CtcDescriptor &) = delete;
    CtcDescriptor &operator=(const CtcDescriptor &) = delete;
    operator cudnnCTCLossDescriptor_t() const { return desc_; }

private:
    cudnnCTCLossDescriptor_t desc_ = nullptr;
};

// One call: the problem (with its lengths even for the _v8 form, where the library does not see them),
// the labels and the input.
struct Case {
    CtcLossProblem problem;
    bool v8 = false;
    int descriptor_max_label = kMaxCtcLabelLength;  // what the descriptor says (the _v8 form sizes by it)
    std::vector<int> labels, label_lengths, input_lengths;
    HostTensor probs;
    double max_abs_input = 0.0;

    std::string text() const { return to_problem_string(problem).to_string() + (v8 ? " (v8)" : ""); }
};

// Labels of `length` letters in 1..A-1, each repeating the one before it about a third of the time (a
// repeat needs a blank between them: one more step).
std::vector<int> random_label(Random &rng, int length, int64_t classes) {
    std::vector<int> label;
    for (int i = 0; i < length; ++i) {
        if (i > 0 && rng.integer(0, 2) == 0) {
            label.push_back(label.back());
        } else {
            label.push_back(static_cast<int>(rng.integer(1, classes - 1)));
        }
    }
    return label;
}

int repeats_of(const int *label, int length) {
    int repeats = 0;
    for (int i = 1; i < length; ++i) repeats += label[i] == label[i - 1] ? 1 : 0;
    return repeats;
}

// Softmax over the last dim of a packed [T, N, A] set of logits, in double.
std::vector<double> softmax_rows(const std::vector<double> &logits, int64_t classes) {
    std::vector<double> out(logits.size());
    for (size_t row = 0; row < logits.size(); row += static_cast<size_t>(classes)) {
        double high = -HUGE_VAL, sum = 0.0;
        for (int64_t a = 0; a < classes; ++a) high = std::max(high, logits[row + a]);
        for (int64_t a = 0; a < classes; ++a) sum += std::exp(logits[row + a] - high);
        for (int64_t a = 0; a < classes; ++a) out[row + a] = std::exp(logits[row + a] - high) / sum;
    }
    return out;
}

void set_probs(Case &c, const std::vector<double> &values) {
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    c.max_abs_input = 0.0;
    do {
        c.probs.set(index, values[e++]);
        c.max_abs_input = std::max(c.max_abs_input, std::fabs(c.probs.at(index)));
    } while (next_index(index, c.probs.geometry.dims, 3));
}

Case random_case(Random &rng) {
    Case c;
    CtcLossProblem &p = c.problem;
    const int64_t T = rng.integer(1, 12), N = rng.integer(1, 5), A = rng.integer(2, 7);
    p.probs = make_geometry(rng, CUDNN_DATA_FLOAT, {T, N, A}, rng.pick(all_layout_kinds()));
    if (rng.integer(0, 5) != 0)
        p.gradients = make_geometry(rng, CUDNN_DATA_FLOAT, {T, N, A}, rng.pick(all_layout_kinds()));
    p.normalization = rng.coin() ? CUDNN_LOSS_NORMALIZATION_SOFTMAX : CUDNN_LOSS_NORMALIZATION_NONE;
    p.grad_mode = rng.coin() ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN;
    p.algorithm = rng.coin() ? CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC : CUDNN_CTC_LOSS_ALGO_DETERMINISTIC;
    c.v8 = rng.coin();
    for (int64_t n = 0; n < N; ++n) {
        const int steps = rng.coin() ? static_cast<int>(T) : static_cast<int>(rng.integer(0, T));
        // Mostly labels that fit (length + repeats <= steps), sometimes longer ones that cannot.
        const int length =
            static_cast<int>(rng.integer(0, rng.integer(0, 4) == 0 ? T + 2 : std::max(1, steps / 2 + 1)));
        const std::vector<int> label = random_label(rng, length, A);
        c.labels.insert(c.labels.end(), label.begin(), label.end());
        c.label_lengths.push_back(length);
        c.input_lengths.push_back(steps);
    }
    p.label_lengths = c.label_lengths;
    p.input_lengths = c.input_lengths;
    const int longest = *std::max_element(c.label_lengths.begin(), c.label_lengths.end());
    p.max_label_length = longest;
    if (c.v8) {
        c.descriptor_max_label = static_cast<int>(rng.integer(longest, longest + 3));
        p.max_label_length = c.descriptor_max_label;
        p.lengths_on_device = true;
    }
    c.probs = HostTensor(p.probs);
    fill_uniform(c.probs, rng, -3.0, 3.0);
    if (p.normalization == CUDNN_LOSS_NORMALIZATION_NONE) set_probs(c, softmax_rows(element_values(c.probs), A));
    c.max_abs_input = 0.0;
    for (double v : element_values(c.probs)) c.max_abs_input = std::max(c.max_abs_input, std::fabs(v));
    return c;
}

struct Result {
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    std::vector<float> costs;
    HostTensor gradients, initial;  // as the call left them, as they went in (poisoned)
};

// Runs `c` through the API on the backend under test, outputs poisoned first.
Result run_case(const Case &c) {
    const CtcLossProblem &p = c.problem;
    Result r;
    Handle handle;
    CtcDescriptor desc;
    EXPECT_EQ(
        cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, p.normalization, p.grad_mode, c.descriptor_max_label),
        CUDNN_STATUS_SUCCESS);
    TensorDescriptor probs_desc(p.probs);
    const bool with_gradients = p.has_gradients();
    std::unique_ptr<TensorDescriptor> grad_desc;
    if (with_gradients) {
        grad_desc = std::make_unique<TensorDescriptor>(p.gradients);
        r.initial = HostTensor(p.gradients);
        poison(r.initial);
    }
    cudnnTensorDescriptor_t gd = with_gradients ? grad_desc->get() : probs_desc.get();
    // An empty label list still needs an address.
    std::vector<int> labels = c.labels;
    if (labels.empty()) labels.push_back(1);
    size_t workspace_bytes = 0;
    r.status = c.v8 ? cudnnGetCTCLossWorkspaceSize_v8(handle, p.algorithm, desc, probs_desc, gd, &workspace_bytes)
                    : cudnnGetCTCLossWorkspaceSize(handle, probs_desc, gd, labels.data(), c.label_lengths.data(),
                                                   c.input_lengths.data(), p.algorithm, desc, &workspace_bytes);
    if (r.status != CUDNN_STATUS_SUCCESS) return r;
    DeviceBuffer probs(c.probs.bytes);
    DeviceBuffer workspace(std::vector<uint8_t>(workspace_bytes + 1, 0xff));
    DeviceBuffer costs(std::vector<uint8_t>(static_cast<size_t>(p.batch()) * sizeof(float), 0xff));
    std::unique_ptr<DeviceBuffer> gradients;
    if (with_gradients) gradients = std::make_unique<DeviceBuffer>(r.initial.bytes);
    void *gradients_data = with_gradients ? gradients->get() : nullptr;
    if (c.v8) {
        DeviceBuffer d_labels(bytes_of(labels)), d_label_lengths(bytes_of(c.label_lengths)),
            d_input_lengths(bytes_of(c.input_lengths));
        r.status = cudnnCTCLoss_v8(
            handle, p.algorithm, desc, probs_desc, probs.get(), static_cast<const int *>(d_labels.get()),
            static_cast<const int *>(d_label_lengths.get()), static_cast<const int *>(d_input_lengths.get()),
            costs.get(), gd, gradients_data, workspace_bytes, workspace.get());
        r.costs = values_of<float>(costs.download());
    } else {
        r.status =
            cudnnCTCLoss(handle, probs_desc, probs.get(), labels.data(), c.label_lengths.data(), c.input_lengths.data(),
                         costs.get(), gd, gradients_data, p.algorithm, desc, workspace.get(), workspace_bytes);
        r.costs = values_of<float>(costs.download());
    }
    if (with_gradients) {
        r.gradients = HostTensor(p.gradients);
        r.gradients.bytes = gradients->download();
    }
    return r;
}

reference::HostTensor double_copy(const HostTensor &t) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE,
                               std::vector<int64_t>(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims));
    copy.set_values(element_values(t));
    return copy;
}

// What the arithmetic allows. Both backends compute in double: every log-domain quantity (a log-softmax,
// log-alpha, log-beta, ln P) is built by at most T + A + 4 steps, each of a few roundings (16 u_double
// covers the exp, log1p and additions of one log_add) of values at most M = T (max|x| + ln A + 1) in
// magnitude (a log-probability is at most max|x| + ln A in size with softmax; with probabilities the
// inputs are >= e^-7, so |ln p| <= 7 + ln A). The cost errs by that much before its float rounding; a
// posterior exp(log alpha + log beta - ln P) relatively by three times it, and a gradient p - gamma,
// |p|, gamma <= 1, by that times 2 plus the sum over the S <= 2L + 1 shares.
struct Bounds {
    double log_error;
    double cost() const { return log_error; }
    double gradient(int64_t S) const { return 6.0 * log_error + 16.0 * kDoubleRoundoff * static_cast<double>(S + 2); }
};

Bounds bounds_for(const Case &c) {
    const double T = static_cast<double>(c.problem.steps()), A = static_cast<double>(c.problem.classes());
    const double magnitude = T * (std::max(c.max_abs_input, 7.0) + std::log(A) + 1.0);
    return {(T + A + 4.0) * 16.0 * kDoubleRoundoff * magnitude};
}

void expect_matches_reference(const Case &c, const Result &r) {
    const CtcLossProblem &p = c.problem;
    const std::string text = c.text();
    ASSERT_EQ(r.status, CUDNN_STATUS_SUCCESS) << text << ": " << last_failure_reason();
    reference::HostTensor probs = double_copy(c.probs);
    std::vector<double> costs;
    std::unique_ptr<reference::HostTensor> exact;
    if (p.has_gradients()) {
        exact = std::make_unique<reference::HostTensor>(double_copy(r.initial));  // NaN: left unwritten
    }
    ASSERT_EQ(reference::ctc_loss(p, probs.view(), c.labels.data(), c.label_lengths.data(), c.input_lengths.data(),
                                  &costs, exact ? &exact->view() : nullptr),
              CUDNN_STATUS_SUCCESS);
    const Bounds bounds = bounds_for(c);
    const Tolerance tolerance = tolerance_for(CUDNN_DATA_FLOAT);
    for (size_t n = 0; n < costs.size(); ++n) {
        if (std::isinf(costs[n])) {
            EXPECT_TRUE(std::isinf(r.costs[n]) && r.costs[n] > 0) << text << ": cost " << n << " is " << r.costs[n];
            continue;
        }
        EXPECT_LE(std::fabs(r.costs[n] - costs[n]), allowed_error_for(tolerance, costs[n], bounds.cost()))
            << text << ": cost " << n << " is " << r.costs[n] << ", the reference's " << costs[n];
    }
    if (!p.has_gradients()) return;
    HostTensor ref = r.initial;
    std::vector<ElementBound> element_bounds;
    int64_t index[kMaxDims] = {};
    const std::vector<double> values = exact->values();
    size_t e = 0;
    do {
        ref.set(index, values[e++]);
        const int64_t S = 2 * static_cast<int64_t>(c.label_lengths[static_cast<size_t>(index[1])]) + 1;
        element_bounds.push_back({bounds.gradient(S)});
    } while (next_index(index, p.gradients.dims, 3));
    EXPECT_TRUE(matches_reference(r.gradients, ref, element_bounds, text));
}

TEST(CtcLoss, MatchesReferenceOnRandomProblems) {
    LIBREDNN_SEEDED_RANDOM(rng);
    int impossible = 0, repeats = 0, empty = 0;
    for (int i = 0; i < 60; ++i) {
        const Case c = random_case(rng);
        size_t offset = 0;
        for (size_t n = 0; n < c.label_lengths.size(); ++n) {
            const int r = repeats_of(c.labels.data() + offset, c.label_lengths[n]);
            impossible += c.label_lengths[n] + r > c.input_lengths[n] ? 1 : 0;
            repeats += r > 0 ? 1 : 0;
            empty += c.label_lengths[n] == 0 ? 1 : 0;
            offset += static_cast<size_t>(c.label_lengths[n]);
        }
        expect_matches_reference(c, run_case(c));
        if (HasFailure()) break;
    }
    // The random cases reach the interesting sequences.
    EXPECT_GT(impossible, 0);
    EXPECT_GT(repeats, 0);
    EXPECT_GT(empty, 0);
}

// Two steps, classes {blank, a}, label "a": the alignments are aa, a-, -a, so
// P = p0a p1a + p0a p1b + p0b p1a; the gradient of the cost with respect to the logits is p - gamma with
// gamma(0, a) = p0a (p1a + p1b) / P.
TEST(CtcLoss, HandWorkedTwoStepExample) {
    Case c;
    CtcLossProblem &p = c.problem;
    int64_t dims[3] = {2, 1, 2};
    p.probs.dtype = CUDNN_DATA_FLOAT;
    p.probs.nb_dims = 3;
    for (int i = 0; i < 3; ++i) p.probs.dims[i] = dims[i];
    p.probs.strides[0] = 2, p.probs.strides[1] = 2, p.probs.strides[2] = 1;
    p.gradients = p.probs;
    p.normalization = CUDNN_LOSS_NORMALIZATION_NONE;
    c.labels = {1};
    c.label_lengths = {1};
    c.input_lengths = {2};
    p.label_lengths = c.label_lengths;
    p.input_lengths = c.input_lengths;
    p.max_label_length = 1;
    c.probs = HostTensor(p.probs);
    const float p0b = 0.25f, p0a = 0.75f, p1b = 0.5f, p1a = 0.5f;
    c.probs.bytes = bytes_of(std::vector<float>{p0b, p0a, p1b, p1a});
    const Result r = run_case(c);
    ASSERT_EQ(r.status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    const double P = 0.75 * 0.5 + 0.75 * 0.5 + 0.25 * 0.5;
    EXPECT_NEAR(r.costs[0], -std::log(P), 0x1p-23 * std::fabs(std::log(P)));
    const std::vector<float> g = values_of<float>(r.gradients.bytes);
    const double gamma0a = 0.75 * (0.5 + 0.5) / P, gamma1a = (0.75 * 0.5 + 0.25 * 0.5) / P;
    const double expected[4] = {0.25 - (1 - gamma0a), 0.75 - gamma0a, 0.5 - (1 - gamma1a), 0.5 - gamma1a};
    for (int i = 0; i < 4; ++i) EXPECT_NEAR(g[i], expected[i], 0x1p-23) << "gradient " << i;
}

// Softmax mode: each gradient against the central difference of the reference's cost, in double. The
// cost as a function of one logit x is a difference of two cumulant generating functions of 0/1 counts
// (how often an alignment, and the softmax, use that logit), whose third derivatives are at most
// 1 / (6 sqrt 3) each; so the truncation error is at most h^2 / 6 * 2 / (6 sqrt 3) < 0.033 h^2, and the
// reference's own rounding (its cost errs by at most the log error of bounds_for) adds log_error / h.
TEST(CtcLoss, GradientsMatchCentralDifferencesOfTheCost) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int i = 0; i < 12; ++i) {
        Case c = random_case(rng);
        c.problem.normalization = CUDNN_LOSS_NORMALIZATION_SOFTMAX;
        c.problem.grad_mode = CUDNN_NOT_PROPAGATE_NAN;
        if (!c.problem.has_gradients()) c.problem.gradients = c.problem.probs;
        fill_uniform(c.probs, rng, -3.0, 3.0);
        c.max_abs_input = 3.0;
        const Result r = run_case(c);
        ASSERT_EQ(r.status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
        const double h = 1e-4;
        const double log_error = bounds_for(c).log_error;
        reference::HostTensor probs = double_copy(c.probs);
        int64_t index[kMaxDims] = {};
        do {
            const reference::Index at = {index[0], index[1], index[2]};
            const double x = probs.read(at);
            std::vector<double> up, down;
            probs.write(at, x + h);
            ASSERT_EQ(reference::ctc_loss(c.problem, probs.view(), c.labels.data(), c.label_lengths.data(),
                                          c.input_lengths.data(), &up, nullptr),
                      CUDNN_STATUS_SUCCESS);
            probs.write(at, x - h);
            ASSERT_EQ(reference::ctc_loss(c.problem, probs.view(), c.labels.data(), c.label_lengths.data(),
                                          c.input_lengths.data(), &down, nullptr),
                      CUDNN_STATUS_SUCCESS);
            probs.write(at, x);
            const size_t n = static_cast<size_t>(index[1]);
            if (std::isinf(up[n])) continue;  // impossible: the gradient is 0 by rule, not by derivative
            const double difference = (up[n] - down[n]) / (2 * h);
            const double got = r.gradients.at(index);
            EXPECT_LE(std::fabs(got - difference),
                      0x1p-24 * std::fabs(difference) + 6.0 * log_error + 0.033 * h * h + log_error / h + 0x1p-40)
                << c.text() << " at [" << index[0] << "," << index[1] << "," << index[2] << "]";
        } while (next_index(index, c.problem.probs.dims, 3));
        if (HasFailure()) break;
    }
}

// The NONE mode's gradients are with respect to the activations whose softmax the probabilities are (the
// reading docs/CTC.md explains): the reference's gradient equals the central difference of its cost
// through a softmax computed in double.
TEST(CtcLossReference, ProbabilityModeGradientIsWithRespectToTheActivations) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int i = 0; i < 6; ++i) {
        Case c = random_case(rng);
        CtcLossProblem p = c.problem;
        p.normalization = CUDNN_LOSS_NORMALIZATION_NONE;
        const int64_t T = p.steps(), N = p.batch(), A = p.classes();
        std::vector<double> logits(static_cast<size_t>(T * N * A));
        for (double &v : logits) v = rng.uniform(-3.0, 3.0);
        reference::HostTensor probs(CUDNN_DATA_DOUBLE, {T, N, A}), gradients(CUDNN_DATA_DOUBLE, {T, N, A});
        probs.set_values(softmax_rows(logits, A));
        std::vector<double> costs;
        ASSERT_EQ(reference::ctc_loss(p, probs.view(), c.labels.data(), c.label_lengths.data(), c.input_lengths.data(),
                                      &costs, &gradients.view()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> g = gradients.values();
        c.max_abs_input = 7.0;  // |ln p| <= 6 + ln A for a softmax of logits in [-3, 3]
        const Bounds bounds = bounds_for(c);
        const double h = 1e-4;
        for (size_t e = 0; e < logits.size(); ++e) {
            const size_t n = (e / static_cast<size_t>(A)) % static_cast<size_t>(N);
            if (std::isinf(costs[n])) continue;
            std::vector<double> moved = logits, up, down;
            moved[e] += h;
            probs.set_values(softmax_rows(moved, A));
            reference::ctc_loss(p, probs.view(), c.labels.data(), c.label_lengths.data(), c.input_lengths.data(), &up,
                                nullptr);
            moved[e] -= 2 * h;
            probs.set_values(softmax_rows(moved, A));
            reference::ctc_loss(p, probs.view(), c.labels.data(), c.label_lengths.data(), c.input_lengths.data(), &down,
                                nullptr);
            const double difference = (up[n] - down[n]) / (2 * h);
            EXPECT_NEAR(g[e], difference, 0.033 * h * h + bounds.log_error / h) << "element " << e;
        }
    }
}

// A label longer than its input allows (here "aa" needs three steps: a, blank, a) costs +inf; its
// gradients are 0 with CUDNN_NOT_PROPAGATE_NAN and left as they were with CUDNN_PROPAGATE_NAN; the
// other sequence of the batch is unaffected.
TEST(CtcLoss, ImpossibleLabelCostsInfinityAndFollowsTheGradientMode) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (cudnnNanPropagation_t mode : {CUDNN_NOT_PROPAGATE_NAN, CUDNN_PROPAGATE_NAN}) {
        for (bool v8 : {false, true}) {
            Case c;
            CtcLossProblem &p = c.problem;
            p.probs = make_geometry(rng, CUDNN_DATA_FLOAT, {3, 2, 3}, LayoutKind::nchw);
            p.gradients = p.probs;
            p.normalization = CUDNN_LOSS_NORMALIZATION_SOFTMAX;
            p.grad_mode = mode;
            c.labels = {1, 1, 2, 2};
            c.label_lengths = {2, 2};
            c.input_lengths = {2, 3};  // the first cannot, the second can
            p.label_lengths = c.label_lengths;
            p.input_lengths = c.input_lengths;
            p.max_label_length = 2;
            c.v8 = v8;
            c.descriptor_max_label = 2;
            if (v8) p.lengths_on_device = true;
            c.probs = HostTensor(p.probs);
            fill_uniform(c.probs, rng, -2.0, 2.0);
            c.max_abs_input = 2.0;
            const Result r = run_case(c);
            ASSERT_EQ(r.status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
            EXPECT_TRUE(std::isinf(r.costs[0]) && r.costs[0] > 0) << r.costs[0];
            EXPECT_TRUE(std::isfinite(r.costs[1])) << r.costs[1];
            for (int64_t t = 0; t < 3; ++t) {
                for (int64_t a = 0; a < 3; ++a) {
                    const int64_t index[3] = {t, 0, a};
                    const double g = r.gradients.at(index);
                    if (mode == CUDNN_NOT_PROPAGATE_NAN) {
                        EXPECT_EQ(g, 0.0) << "t " << t << " a " << a;
                    } else {
                        EXPECT_TRUE(std::isnan(g)) << "t " << t << " a " << a << " was written: " << g;
                    }
                }
            }
            expect_matches_reference(c, r);
        }
    }
}

TEST(CtcLoss, SameInputsGiveTheSameBits) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int i = 0; i < 4; ++i) {
        Case c = random_case(rng);
        if (!c.problem.has_gradients()) c.problem.gradients = c.problem.probs;
        const Result first = run_case(c), second = run_case(c);
        ASSERT_EQ(first.status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
        EXPECT_EQ(bytes_of(first.costs), bytes_of(second.costs)) << c.text();
        EXPECT_EQ(first.gradients.bytes, second.gradients.bytes) << c.text();
    }
}

// The _v8 query sizes the workspace by the descriptor's maxLabelLength, the cuDNN 7 one by the labels; a
// longer maxLabelLength never asks for less.
TEST(CtcLoss, WorkspaceQueries) {
    Handle handle;
    CtcDescriptor desc;
    Random rng;
    TensorGeometry g = make_geometry(rng, CUDNN_DATA_FLOAT, {20, 3, 5}, LayoutKind::nchw);
    TensorDescriptor probs(g);
    const int labels[] = {1, 2, 3, 4, 4}, label_lengths[] = {2, 0, 3}, input_lengths[] = {20, 7, 9};
    size_t small = 0, large = 0, host = 0;
    ASSERT_EQ(cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX,
                                           CUDNN_NOT_PROPAGATE_NAN, 3),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetCTCLossWorkspaceSize_v8(handle, CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, probs, probs, &small),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    ASSERT_EQ(cudnnGetCTCLossWorkspaceSize(handle, probs, probs, labels, label_lengths, input_lengths,
                                           CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC, desc, &host),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    ASSERT_EQ(cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX,
                                           CUDNN_NOT_PROPAGATE_NAN, 200),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetCTCLossWorkspaceSize_v8(handle, CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, probs, probs, &large),
              CUDNN_STATUS_SUCCESS);
    EXPECT_GT(small, 0u);
    EXPECT_GT(large, small);
    EXPECT_GE(host, small);  // the same tables, plus room for a device copy of the labels
}

TEST(CtcLoss, RejectsWhatCudnnRejects) {
    Handle handle;
    CtcDescriptor desc;
    Random rng;
    const TensorGeometry g = make_geometry(rng, CUDNN_DATA_FLOAT, {4, 2, 5}, LayoutKind::nchw);
    TensorDescriptor probs(g);
    const int labels[] = {1, 2, 3}, label_lengths[] = {2, 1}, input_lengths[] = {4, 3};
    size_t bytes = 0;
    auto query = [&](cudnnTensorDescriptor_t p, cudnnTensorDescriptor_t gr, const int *l, const int *ll, const int *il,
                     int algo = CUDNN_CTC_LOSS_ALGO_DETERMINISTIC) {
        return cudnnGetCTCLossWorkspaceSize(handle, p, gr, l, ll, il, static_cast<cudnnCTCLossAlgo_t>(algo), desc,
                                            &bytes);
    };
    // Unset descriptor.
    EXPECT_EQ(query(probs, probs, labels, label_lengths, input_lengths), CUDNN_STATUS_BAD_PARAM);
    ASSERT_EQ(
        cudnnSetCTCLossDescriptorEx(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX, CUDNN_NOT_PROPAGATE_NAN),
        CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(query(probs, probs, labels, label_lengths, input_lengths), CUDNN_STATUS_SUCCESS) << last_failure_reason();
    // Unknown algorithm, other data or compute types: NOT_SUPPORTED.
    EXPECT_EQ(query(probs, probs, labels, label_lengths, input_lengths, 2), CUDNN_STATUS_NOT_SUPPORTED);
    TensorGeometry d = g;
    d.dtype = CUDNN_DATA_DOUBLE;
    TensorDescriptor doubles(d);
    EXPECT_EQ(query(doubles, doubles, labels, label_lengths, input_lengths), CUDNN_STATUS_NOT_SUPPORTED);
    d.dtype = CUDNN_DATA_HALF;
    TensorDescriptor halves(d);
    EXPECT_EQ(query(halves, halves, labels, label_lengths, input_lengths), CUDNN_STATUS_NOT_SUPPORTED);
    ASSERT_EQ(cudnnSetCTCLossDescriptor(desc, CUDNN_DATA_DOUBLE), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(query(probs, probs, labels, label_lengths, input_lengths), CUDNN_STATUS_NOT_SUPPORTED);
    ASSERT_EQ(cudnnSetCTCLossDescriptor(desc, CUDNN_DATA_FLOAT), CUDNN_STATUS_SUCCESS);
    // Shapes: gradients of other dims, 4-d probs.
    TensorDescriptor other(make_geometry(rng, CUDNN_DATA_FLOAT, {4, 2, 6}, LayoutKind::nchw));
    EXPECT_EQ(query(probs, other, labels, label_lengths, input_lengths), CUDNN_STATUS_BAD_PARAM);
    TensorDescriptor four(make_geometry(rng, CUDNN_DATA_FLOAT, {4, 2, 5, 1}, LayoutKind::nchw));
    EXPECT_EQ(query(four, four, labels, label_lengths, input_lengths), CUDNN_STATUS_BAD_PARAM);
    // Lengths and labels out of range; NULL arrays.
    const int too_long[] = {257, 1}, too_many_steps[] = {5, 3}, negative[] = {-1, 1};
    std::vector<int> many(258, 1);
    EXPECT_EQ(query(probs, probs, many.data(), too_long, input_lengths), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(query(probs, probs, labels, negative, input_lengths), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(query(probs, probs, labels, label_lengths, too_many_steps), CUDNN_STATUS_BAD_PARAM);
    const int blank_label[] = {1, 0, 3}, beyond[] = {1, 2, 5};
    EXPECT_EQ(query(probs, probs, blank_label, label_lengths, input_lengths), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(query(probs, probs, beyond, label_lengths, input_lengths), CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(query(probs, probs, nullptr, label_lengths, input_lengths), CUDNN_STATUS_BAD_PARAM);
    // The _v8 form: maxLabelLength beyond 256.
    ASSERT_EQ(cudnnSetCTCLossDescriptor_v8(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX,
                                           CUDNN_NOT_PROPAGATE_NAN, 300),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetCTCLossWorkspaceSize_v8(handle, CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, probs, probs, &bytes),
              CUDNN_STATUS_BAD_PARAM);
    ASSERT_EQ(
        cudnnSetCTCLossDescriptorEx(desc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX, CUDNN_NOT_PROPAGATE_NAN),
        CUDNN_STATUS_SUCCESS);
    // The call: a workspace too small, NULL costs, gradients without their descriptor.
    ASSERT_EQ(query(probs, probs, labels, label_lengths, input_lengths), CUDNN_STATUS_SUCCESS);
    HostTensor x(g);
    fill_uniform(x, rng, -1.0, 1.0);
    DeviceBuffer data(x.bytes), gradients(x.bytes), costs(std::vector<uint8_t>(8, 0)),
        workspace(std::vector<uint8_t>(bytes, 0));
    EXPECT_EQ(cudnnCTCLoss(handle, probs, data.get(), labels, label_lengths, input_lengths, costs.get(), probs,
                           gradients.get(), CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, workspace.get(), bytes - 1),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(cudnnCTCLoss(handle, probs, data.get(), labels, label_lengths, input_lengths, nullptr, probs,
                           gradients.get(), CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, workspace.get(), bytes),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(cudnnCTCLoss(handle, probs, data.get(), labels, label_lengths, input_lengths, costs.get(), nullptr,
                           gradients.get(), CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, workspace.get(), bytes),
              CUDNN_STATUS_BAD_PARAM);
    EXPECT_EQ(cudnnCTCLoss(handle, probs, data.get(), labels, label_lengths, input_lengths, costs.get(), probs,
                           gradients.get(), CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, desc, workspace.get(), bytes),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
}

TEST(CtcLoss, ProblemStringsRoundTrip) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int i = 0; i < 20; ++i) {
        const Case c = random_case(rng);
        const std::string text = to_problem_string(c.problem).to_string();
        ProblemString parsed;
        std::string error;
        ASSERT_TRUE(ProblemString::parse(text, &parsed, &error)) << error;
        CtcLossProblem back;
        ASSERT_TRUE(parse_ctc_loss_problem(parsed, &back, &error)) << text << ": " << error;
        EXPECT_TRUE(back == c.problem) << text << " reads back as " << to_problem_string(back).to_string();
    }
    ProblemString parsed;
    std::string error;
    CtcLossProblem p;
    ASSERT_TRUE(
        ProblemString::parse("op=ctc_loss dtype=float dims=4x2x5 norm=softmax label_lengths=2x9 "
                             "input_lengths=4x4",
                             &parsed, &error));
    EXPECT_TRUE(parse_ctc_loss_problem(parsed, &p, &error));
    ASSERT_TRUE(ProblemString::parse("op=ctc_loss dtype=float dims=4x2x5 label_lengths=2x1 input_lengths=4x5", &parsed,
                                     &error));
    EXPECT_FALSE(parse_ctc_loss_problem(parsed, &p, &error));  // an input longer than T
}

}  // namespace
