// cuDNN's rules for CTC loss problems: [T, N, A] float tensors of equal dims, float compute, a known
// algorithm, labels of at most 256 entries within the input's steps.
#pragma once

#include "core/status.hpp"
#include "ops/ctc_loss/problem.hpp"

namespace librednn {

// The problem's own rules (the lengths too, when the problem holds them).
Status validate_ctc_loss(const CtcLossProblem &problem);

// The lengths and the labels themselves, read from host memory: each label length in 0..max (256, or
// the problem's max_label_length when the lengths came with the descriptor's bound), each input length
// in 0..T, each label in 1..A-1 (0 is the blank). BAD_PARAM naming the first that is not.
Status validate_ctc_labels(const CtcLossProblem &problem, const int *labels, const int *label_lengths,
                           const int *input_lengths);

}  // namespace librednn
