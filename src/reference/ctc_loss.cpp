// The reference CTC loss: log-space alpha and beta over whole [T][S] tables, in double.
#include "reference/ctc_loss.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace librednn::reference {

namespace {

constexpr double kLogZero = -std::numeric_limits<double>::infinity();

// ln(e^a + e^b), exact for -inf operands.
double log_add(double a, double b) {
    if (a == kLogZero) return b;
    if (b == kLogZero) return a;
    const double high = std::max(a, b);
    return high + std::log(std::exp(a - high) + std::exp(b - high));
}

// One sequence: its log-probabilities lp[t][a] for t < steps, then the tables.
void one_sequence(const CtcLossProblem &p, const TensorView &probs, int64_t n, const int *label, int length, int steps,
                  double *cost, const TensorView *gradients) {
    const int64_t A = p.classes();
    std::vector<std::vector<double>> lp(static_cast<size_t>(steps), std::vector<double>(static_cast<size_t>(A)));
    for (int t = 0; t < steps; ++t) {
        for (int64_t a = 0; a < A; ++a) lp[t][a] = probs.read({t, n, a});
        if (p.normalization == CUDNN_LOSS_NORMALIZATION_SOFTMAX) {
            double high = kLogZero;
            for (int64_t a = 0; a < A; ++a) high = std::max(high, lp[t][a]);
            double sum = 0.0;
            for (int64_t a = 0; a < A; ++a) sum += std::exp(lp[t][a] - high);
            const double log_sum = high + std::log(sum);
            for (int64_t a = 0; a < A; ++a) lp[t][a] -= log_sum;
        } else {
            for (int64_t a = 0; a < A; ++a) lp[t][a] = std::log(lp[t][a]);
        }
    }
    const int S = 2 * length + 1;
    std::vector<int> ext(static_cast<size_t>(S), 0);
    for (int i = 0; i < length; ++i) ext[2 * i + 1] = label[i];
    // A skip from s - 2 to s: s a letter other than the one two positions back.
    auto can_skip = [&](int s) { return s >= 2 && ext[s] != 0 && ext[s] != ext[s - 2]; };

    std::vector<std::vector<double>> alpha(static_cast<size_t>(steps), std::vector<double>(S, kLogZero));
    std::vector<std::vector<double>> beta(static_cast<size_t>(steps), std::vector<double>(S, kLogZero));
    double log_p = length == 0 ? 0.0 : kLogZero;  // no steps: only the empty label is produced
    if (steps > 0) {
        for (int s = 0; s < std::min(S, 2); ++s) alpha[0][s] = lp[0][ext[s]];
        for (int t = 1; t < steps; ++t) {
            for (int s = 0; s < S; ++s) {
                double sum = alpha[t - 1][s];
                if (s >= 1) sum = log_add(sum, alpha[t - 1][s - 1]);
                if (can_skip(s)) sum = log_add(sum, alpha[t - 1][s - 2]);
                alpha[t][s] = sum == kLogZero ? kLogZero : sum + lp[t][ext[s]];
            }
        }
        const int last = steps - 1;
        for (int s = std::max(0, S - 2); s < S; ++s) beta[last][s] = lp[last][ext[s]];
        for (int t = last - 1; t >= 0; --t) {
            for (int s = 0; s < S; ++s) {
                double sum = beta[t + 1][s];
                if (s + 1 < S) sum = log_add(sum, beta[t + 1][s + 1]);
                if (s + 2 < S && can_skip(s + 2)) sum = log_add(sum, beta[t + 1][s + 2]);
                beta[t][s] = sum == kLogZero ? kLogZero : sum + lp[t][ext[s]];
            }
        }
        log_p = alpha[last][S - 1];
        if (S >= 2) log_p = log_add(log_p, alpha[last][S - 2]);
    }
    *cost = -log_p;
    if (gradients == nullptr) return;
    const bool impossible = log_p == kLogZero;
    if (impossible && p.grad_mode == CUDNN_PROPAGATE_NAN) return;  // left as they are
    for (int64_t t = 0; t < p.steps(); ++t) {
        for (int64_t a = 0; a < A; ++a) {
            double gradient = 0.0;
            if (t < steps && !impossible) {
                double gamma = 0.0;
                for (int s = 0; s < S; ++s) {
                    if (ext[s] == a && lp[t][a] != kLogZero)
                        gamma += std::exp(alpha[t][s] + beta[t][s] - lp[t][a] - log_p);
                }
                gradient = std::exp(lp[t][a]) - gamma;
            }
            gradients->write({t, n, a}, gradient);
        }
    }
}

}  // namespace

Status ctc_loss(const CtcLossProblem &p, const TensorView &probs, const int *labels, const int *label_lengths,
                const int *input_lengths, std::vector<double> *costs, const TensorView *gradients) {
    LIBREDNN_CHECK(check_view(probs, "probs"));
    if (gradients != nullptr) LIBREDNN_CHECK(check_view(*gradients, "gradients"));
    if (probs.rank() != 3) return fail(CUDNN_STATUS_BAD_PARAM, "probs must be [T, N, A]");
    const int64_t N = probs.dims[1];
    int64_t offset = 0;
    for (int64_t n = 0; n < N; ++n) {
        if (label_lengths[n] < 0 || input_lengths[n] < 0 || input_lengths[n] > probs.dims[0])
            return fail(CUDNN_STATUS_BAD_PARAM, "sequence %lld: a length is out of range", static_cast<long long>(n));
        for (int i = 0; i < label_lengths[n]; ++i) {
            if (labels[offset + i] < 1 || labels[offset + i] >= probs.dims[2])
                return fail(CUDNN_STATUS_BAD_PARAM, "sequence %lld: label %d is out of range",
                            static_cast<long long>(n), labels[offset + i]);
        }
        offset += label_lengths[n];
    }
    costs->assign(static_cast<size_t>(N), 0.0);
    offset = 0;
    for (int64_t n = 0; n < N; ++n) {
        one_sequence(p, probs, n, labels + offset, label_lengths[n], input_lengths[n], &(*costs)[n], gradients);
        offset += label_lengths[n];
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
