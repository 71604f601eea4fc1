// The reference CTC loss (cudnnCTCLoss, cudnnCTCLoss_v8): Graves' forward-backward recursion in double,
// in log space, one sequence at a time, written to be read (ops/ctc_loss/problem.hpp states the maths).
//
// For sequence n with label l (length L) and T_n steps: the extended label l' has S = 2L + 1 positions,
// blanks at the even ones and l at the odd ones. alpha_t(s) is the probability of the prefixes of
// alignments that sit at l'_s at step t, beta_t(s) that of the suffixes from step t on that start at
// l'_s, both including p(t, l'_s). A step moves from s to s, s + 1, or s + 2 when l'_(s+2) is a letter
// other than l'_s. P = alpha_(T_n - 1)(S - 1) + alpha_(T_n - 1)(S - 2) (1 for T_n = 0 and L = 0),
// cost = -ln P, gamma(t, a) = sum over s with l'_s = a of alpha_t(s) beta_t(s) / (p(t, a) P), and the
// gradient p(t, a) - gamma(t, a) for t < T_n, 0 after. When P = 0 the cost is +inf and the sequence's
// gradients are 0 (CUDNN_NOT_PROPAGATE_NAN) or left as they are (CUDNN_PROPAGATE_NAN).
#pragma once

#include "ops/ctc_loss/problem.hpp"
#include "reference/tensor_view.hpp"

#include <vector>

namespace librednn::reference {

// `probs` and `gradients` are [T, N, A] views (`gradients` may be NULL: costs only); the labels and
// lengths are host arrays, checked (BAD_PARAM, nothing written, when a length or label is out of range).
// costs gets N values, exact up to double rounding.
Status ctc_loss(const CtcLossProblem &problem, const TensorView &probs, const int *labels, const int *label_lengths,
                const int *input_lengths, std::vector<double> *costs, const TensorView *gradients);

}  // namespace librednn::reference
