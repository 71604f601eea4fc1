// Host CTC loss: per sequence, log-space alpha over every step into the workspace, then beta one step at a
// time from the end, each step's posteriors gathered and its gradient row written as beta passes. In
// double throughout; the sequences are split over the threads. Both algorithms run this code, so
// CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC is deterministic here too.
#include "host/common/parallel.hpp"
#include "host/ctc_loss/solvers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace librednn {

namespace {

constexpr double kLogZero = -std::numeric_limits<double>::infinity();

double log_add(double a, double b) {
    if (a == kLogZero) return b;
    if (b == kLogZero) return a;
    return a > b ? a + std::log1p(std::exp(b - a)) : b + std::log1p(std::exp(a - b));
}

struct Sequence {
    const CtcLossProblem &p;
    const float *probs;
    float *gradients;
    double *alpha, *beta, *normaliser, *posterior;  // this sequence's part of the workspace
    int64_t n;
    const int *label;
    int length, steps;

    float prob_at(int64_t t, int64_t a) const {
        return probs[t * p.probs.strides[0] + n * p.probs.strides[1] + a * p.probs.strides[2]];
    }
    float &gradient_at(int64_t t, int64_t a) const {
        return gradients[t * p.gradients.strides[0] + n * p.gradients.strides[1] + a * p.gradients.strides[2]];
    }
    // ln p(t, a): the input's log, or the input less the step's log-sum-exp.
    double log_prob(int64_t t, int64_t a) const {
        const double x = prob_at(t, a);
        return p.normalization == CUDNN_LOSS_NORMALIZATION_SOFTMAX ? x - normaliser[t] : std::log(x);
    }
    // p(t, a) itself, as the gradient's first term.
    double prob(int64_t t, int64_t a) const {
        const double x = prob_at(t, a);
        return p.normalization == CUDNN_LOSS_NORMALIZATION_SOFTMAX ? std::exp(x - normaliser[t]) : x;
    }
    int extended(int s) const { return (s & 1) ? label[s >> 1] : 0; }
    bool can_skip(int s) const { return s >= 2 && (s & 1) && label[s >> 1] != label[(s >> 1) - 1]; }

    double run();
};

double Sequence::run() {
    const int64_t A = p.classes();
    const int S = 2 * length + 1;
    if (p.normalization == CUDNN_LOSS_NORMALIZATION_SOFTMAX) {
        for (int t = 0; t < steps; ++t) {
            double high = kLogZero;
            for (int64_t a = 0; a < A; ++a) high = std::max(high, static_cast<double>(prob_at(t, a)));
            double sum = 0.0;
            for (int64_t a = 0; a < A; ++a) sum += std::exp(prob_at(t, a) - high);
            normaliser[t] = high + std::log(sum);
        }
    }
    double log_p = length == 0 ? 0.0 : kLogZero;
    if (steps > 0) {
        for (int s = 0; s < S; ++s) alpha[s] = s < 2 ? log_prob(0, extended(s)) : kLogZero;
        for (int t = 1; t < steps; ++t) {
            const double *previous = alpha + static_cast<int64_t>(t - 1) * S;
            double *current = alpha + static_cast<int64_t>(t) * S;
            for (int s = 0; s < S; ++s) {
                double sum = previous[s];
                if (s >= 1) sum = log_add(sum, previous[s - 1]);
                if (can_skip(s)) sum = log_add(sum, previous[s - 2]);
                current[s] = sum == kLogZero ? kLogZero : sum + log_prob(t, extended(s));
            }
        }
        const double *last = alpha + static_cast<int64_t>(steps - 1) * S;
        log_p = S >= 2 ? log_add(last[S - 1], last[S - 2]) : last[S - 1];
    }
    if (gradients == nullptr) return log_p;
    const bool impossible = log_p == kLogZero;
    if (impossible && p.grad_mode == CUDNN_PROPAGATE_NAN) return log_p;
    for (int64_t t = impossible ? 0 : steps; t < p.steps(); ++t) {
        for (int64_t a = 0; a < A; ++a) gradient_at(t, a) = 0.0f;
    }
    if (impossible) return log_p;
    // beta here leaves out step t's own probability: alpha_t(s) beta_t(s) / P is the posterior of s at t.
    double *next = beta, *current = beta + S;
    for (int s = 0; s < S; ++s) current[s] = s >= S - 2 ? 0.0 : kLogZero;
    for (int t = steps - 1; t >= 0; --t) {
        if (t < steps - 1) {
            std::swap(next, current);
            for (int s = 0; s < S; ++s) {
                double sum = next[s] + log_prob(t + 1, extended(s));
                if (s + 1 < S) sum = log_add(sum, next[s + 1] + log_prob(t + 1, extended(s + 1)));
                if (s + 2 < S && can_skip(s + 2)) sum = log_add(sum, next[s + 2] + log_prob(t + 1, extended(s + 2)));
                current[s] = sum;
            }
        }
        std::fill(posterior, posterior + A, 0.0);
        const double *alpha_t = alpha + static_cast<int64_t>(t) * S;
        for (int s = 0; s < S; ++s) {
            const double log_share = alpha_t[s] + current[s] - log_p;
            if (log_share != kLogZero) posterior[extended(s)] += std::exp(log_share);
        }
        for (int64_t a = 0; a < A; ++a) gradient_at(t, a) = static_cast<float>(prob(t, a) - posterior[a]);
    }
    return log_p;
}

class HostCtcLoss final : public CtcLossSolver {
public:
    explicit HostCtcLoss(cudnnCTCLossAlgo_t algorithm) : algorithm_(algorithm) {}

    const char *name() const override {
        return algorithm_ == CUDNN_CTC_LOSS_ALGO_DETERMINISTIC ? "host_ctc_loss_deterministic"
                                                               : "host_ctc_loss_non_deterministic";
    }
    SolverId id() const override {
        return algorithm_ == CUDNN_CTC_LOSS_ALGO_DETERMINISTIC ? SolverId::host_ctc_loss_deterministic
                                                               : SolverId::host_ctc_loss_non_deterministic;
    }
    int algorithm() const override { return static_cast<int>(algorithm_); }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const CtcLossProblem &) const override { return Applicability::yes(); }
    size_t workspace_bytes(const CtcLossProblem &problem) const override { return ctc_loss_workspace_bytes(problem); }

    Status run(const ExecutionContext &context, const CtcLossProblem &p, const CtcLossBuffers &b) const override {
        const CtcWorkspaceLayout layout = ctc_workspace_layout(p);
        const int64_t N = p.batch();
        std::vector<int64_t> offsets(static_cast<size_t>(N), 0);
        for (int64_t n = 1; n < N; ++n) offsets[n] = offsets[n - 1] + b.label_lengths[n - 1];
        double *workspace = static_cast<double *>(context.workspace);
        float *costs = static_cast<float *>(b.costs);
        host::parallel_for(N, 1, [&](int64_t begin, int64_t end, int) {
            for (int64_t n = begin; n < end; ++n) {
                double *part = workspace + n * layout.per_sequence;
                Sequence sequence{p,
                                  static_cast<const float *>(b.probs),
                                  static_cast<float *>(b.gradients),
                                  part + layout.alpha,
                                  part + layout.beta,
                                  part + layout.normaliser,
                                  part + layout.posterior,
                                  n,
                                  b.labels + offsets[n],
                                  b.label_lengths[n],
                                  b.input_lengths[n]};
                costs[n] = static_cast<float>(-sequence.run());
            }
        });
        return CUDNN_STATUS_SUCCESS;
    }

private:
    cudnnCTCLossAlgo_t algorithm_;
};

}  // namespace

void register_host_ctc_loss_solvers(SolverRegistry &registry) {
    static const HostCtcLoss deterministic(CUDNN_CTC_LOSS_ALGO_DETERMINISTIC);
    static const HostCtcLoss non_deterministic(CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC);
    registry.ctc_loss.push_back(&deterministic);
    registry.ctc_loss.push_back(&non_deterministic);
}

}  // namespace librednn
