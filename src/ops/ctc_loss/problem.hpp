// A CTC loss problem (cudnnCTCLoss, cudnnCTCLoss_v8) as a value, with its buffers, its workspace and its
// problem string ("op=ctc_loss dtype=float dims=50x8x29 norm=softmax ...", which librednn-bench runs for
// cudnnCTCLoss). docs/CTC.md says what cuDNN 8.9 computes and how LibreDNN read it.
//
// probs is [T, N, A]: T time steps, N sequences, A classes, class 0 the blank. Sequence n has
// inputLengths[n] steps and the label labels[o_n .. o_n + labelLengths[n]), o_n the sum of the lengths
// before it (the labels are concatenated), every label in [1, A). With p(t, a) the probabilities (the
// input itself with CUDNN_LOSS_NORMALIZATION_NONE, softmax over A of the input with _SOFTMAX):
//   costs[n]           = -ln P(label | p), the sum over every alignment of the label (blanks anywhere,
//                        a repeated letter separated by a blank) of the product of p along it;
//   gradients[t][n][a] = p(t, a) - gamma(t, a), gamma the posterior probability of class a at step t
//                        given the label: the derivative of costs[n] with respect to the activations
//                        whose softmax p is (in both modes), 0 for t >= inputLengths[n].
// A label that no alignment of inputLengths[n] steps can produce (length plus repeats > steps) has cost
// +inf; its gradients are 0 (CUDNN_NOT_PROPAGATE_NAN) or not written (CUDNN_PROPAGATE_NAN).
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace librednn {

// cuDNN 8.9's limit on a label's length ("labelLengths is greater than 256" is a BAD_PARAM case).
constexpr int kMaxCtcLabelLength = 256;

struct CtcLossProblem {
    TensorGeometry probs;      // [T, N, A]
    TensorGeometry gradients;  // probs' dims; nb_dims 0 when the call asks for no gradients
    cudnnDataType_t compute_type = CUDNN_DATA_FLOAT;
    cudnnLossNormalizationMode_t normalization = CUDNN_LOSS_NORMALIZATION_NONE;
    cudnnNanPropagation_t grad_mode = CUDNN_NOT_PROPAGATE_NAN;
    cudnnCTCLossAlgo_t algorithm = CUDNN_CTC_LOSS_ALGO_DETERMINISTIC;
    // The longest label the workspace is sized for: the longest of label_lengths when they are known,
    // else the descriptor's maxLabelLength.
    int max_label_length = 0;
    // cudnnCTCLoss takes the labels and lengths in host memory, cudnnCTCLoss_v8 in the backend's memory
    // (device memory on CUDA); then label_lengths and input_lengths are unknown (empty) on the host side.
    bool lengths_on_device = false;
    std::vector<int> label_lengths, input_lengths;  // N each, when known

    int64_t steps() const { return probs.dims[0]; }
    int64_t batch() const { return probs.dims[1]; }
    int64_t classes() const { return probs.dims[2]; }
    bool has_gradients() const { return gradients.nb_dims != 0; }
    // 2 * max_label_length + 1: the blank-extended label's positions.
    int64_t extended_length() const { return 2 * static_cast<int64_t>(max_label_length) + 1; }
    int64_t label_count() const;  // the sum of label_lengths (0 when unknown)

    bool operator==(const CtcLossProblem &other) const;
};

struct CtcLossBuffers {
    const void *probs = nullptr;
    // Host memory for cudnnCTCLoss, the backend's memory for cudnnCTCLoss_v8 (problem.lengths_on_device).
    const int *labels = nullptr;
    const int *label_lengths = nullptr;
    const int *input_lengths = nullptr;
    void *costs = nullptr;      // N floats
    void *gradients = nullptr;  // NULL when the problem has none
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const CtcLossProblem &problem, const CtcLossBuffers &buffers);

// The workspace every backend asks for, in bytes: per sequence, log-alpha for every step and position
// of the extended label (T * S doubles), two rows of beta (2S), the normaliser of each step (T) and a row
// of A posteriors; then, for lengths in host memory, room for a device copy of the labels and lengths.
size_t ctc_loss_workspace_bytes(const CtcLossProblem &problem);

// Where the parts of one sequence's workspace start, in doubles from the workspace's start.
struct CtcWorkspaceLayout {
    int64_t per_sequence = 0;                                    // doubles per sequence
    int64_t alpha = 0, beta = 0, normaliser = 0, posterior = 0;  // offsets within a sequence's part
    int64_t label_bytes_offset = 0;  // bytes from the start: the copied labels, then label and input lengths
};
CtcWorkspaceLayout ctc_workspace_layout(const CtcLossProblem &problem);

// "softmax" / "none", for strings and messages.
const char *ctc_normalization_name(cudnnLossNormalizationMode_t mode);
const char *ctc_algorithm_name(cudnnCTCLossAlgo_t algorithm);

ProblemString to_problem_string(const CtcLossProblem &problem);
bool parse_ctc_loss_problem(const ProblemString &text, CtcLossProblem *problem, std::string *error);

}  // namespace librednn
