// The CTC loss kernel (ctc_loss.hpp).
#include "cuda/ctc_loss/ctc_loss.hpp"

#include "core/cuda_failure.hpp"
#include "core/fault_injection.hpp"
#include "cuda/common/launch_util.hpp"

#include <math_constants.h>

#include <cstdint>

namespace librednn::cuda {

namespace {

constexpr int kThreads = 256;
constexpr int kMaxLabel = kMaxCtcLabelLength;
constexpr int kMaxExtended = 2 * kMaxLabel + 1;

struct CtcArgs {
    int64_t steps, batch, classes;
    int64_t probs_strides[3], grad_strides[3];
    const float *probs;
    float *gradients;  // NULL: costs only
    float *costs;
    const int *labels, *label_lengths, *input_lengths;
    double *workspace;
    int64_t per_sequence, alpha, normaliser, posterior;  // ctc_workspace_layout, in doubles
    int max_label;
    int softmax;
    int zero_impossible;  // CUDNN_NOT_PROPAGATE_NAN: an impossible label's gradients are 0
};

__device__ __forceinline__ double log_add(double a, double b) {
    if (a == -CUDART_INF) return b;
    if (b == -CUDART_INF) return a;
    return a > b ? a + log1p(exp(b - a)) : b + log1p(exp(a - b));
}

// A sum or maximum over the block in a fixed tree order: the same bits on every run.
template <bool kMax>
__device__ double block_reduce(double value, double *scratch) {
    scratch[threadIdx.x] = value;
    __syncthreads();
    for (int stride = kThreads / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) {
            const double other = scratch[threadIdx.x + stride];
            scratch[threadIdx.x] = kMax ? fmax(scratch[threadIdx.x], other) : scratch[threadIdx.x] + other;
        }
        __syncthreads();
    }
    const double result = scratch[0];
    __syncthreads();
    return result;
}

__global__ void __launch_bounds__(kThreads) ctc_loss_kernel(const __grid_constant__ CtcArgs a) {
    __shared__ int label[kMaxLabel];
    __shared__ int next_repeat[kMaxLabel];  // the next position of the same letter, -1 after the last
    __shared__ int first_of_letter[kMaxLabel];
    __shared__ double beta_rows[2][kMaxExtended];
    __shared__ double scratch[kThreads];
    __shared__ int valid;
    __shared__ double log_p;

    const int64_t n = blockIdx.x;
    const int tid = threadIdx.x;
    // Where the sequence's label starts: the lengths before it, summed over the block.
    double before = 0.0;
    for (int64_t m = tid; m < n; m += kThreads) before += a.label_lengths[m];
    const int64_t offset = static_cast<int64_t>(block_reduce<false>(before, scratch));
    const int length = a.label_lengths[n];
    const int steps = a.input_lengths[n];
    if (tid == 0) valid = length >= 0 && length <= a.max_label && steps >= 0 && steps <= a.steps;
    __syncthreads();
    if (valid) {
        for (int i = tid; i < length; i += kThreads) {
            label[i] = a.labels[offset + i];
            if (label[i] < 1 || label[i] >= a.classes) valid = 0;
        }
    }
    __syncthreads();
    if (!valid) {
        if (tid == 0) a.costs[n] = CUDART_NAN_F;
        return;
    }
    for (int i = tid; i < length; i += kThreads) {
        int next = -1, first = 1;
        for (int j = length - 1; j > i; --j) next = label[j] == label[i] ? j : next;
        for (int j = 0; j < i && first; ++j) first = label[j] != label[i];
        next_repeat[i] = next;
        first_of_letter[i] = first;
    }

    double *part = a.workspace + n * a.per_sequence;
    double *alpha = part + a.alpha, *normaliser = part + a.normaliser, *posterior = part + a.posterior;
    auto input = [&](int64_t t, int64_t c) {
        return static_cast<double>(a.probs[t * a.probs_strides[0] + n * a.probs_strides[1] + c * a.probs_strides[2]]);
    };
    auto log_prob = [&](int64_t t, int64_t c) { return a.softmax ? input(t, c) - normaliser[t] : log(input(t, c)); };
    auto extended = [&](int s) { return (s & 1) ? label[s >> 1] : 0; };
    auto can_skip = [&](int s) { return s >= 2 && (s & 1) && label[s >> 1] != label[(s >> 1) - 1]; };

    if (a.softmax) {
        for (int t = 0; t < steps; ++t) {
            double high = -CUDART_INF;
            for (int64_t c = tid; c < a.classes; c += kThreads) high = fmax(high, input(t, c));
            high = block_reduce<true>(high, scratch);
            double sum = 0.0;
            for (int64_t c = tid; c < a.classes; c += kThreads) sum += exp(input(t, c) - high);
            sum = block_reduce<false>(sum, scratch);
            if (tid == 0) normaliser[t] = high + log(sum);
        }
    }
    __syncthreads();

    const int S = 2 * length + 1;
    if (steps > 0) {
        for (int s = tid; s < S; s += kThreads) alpha[s] = s < 2 ? log_prob(0, extended(s)) : -CUDART_INF;
        __syncthreads();
        for (int t = 1; t < steps; ++t) {
            const double *previous = alpha + static_cast<int64_t>(t - 1) * S;
            double *current = alpha + static_cast<int64_t>(t) * S;
            for (int s = tid; s < S; s += kThreads) {
                double sum = previous[s];
                if (s >= 1) sum = log_add(sum, previous[s - 1]);
                if (can_skip(s)) sum = log_add(sum, previous[s - 2]);
                current[s] = sum == -CUDART_INF ? -CUDART_INF : sum + log_prob(t, extended(s));
            }
            __syncthreads();
        }
    }
    if (tid == 0) {
        double result = length == 0 ? 0.0 : -CUDART_INF;
        if (steps > 0) {
            const double *last = alpha + static_cast<int64_t>(steps - 1) * S;
            result = S >= 2 ? log_add(last[S - 1], last[S - 2]) : last[S - 1];
        }
        log_p = result;
        a.costs[n] = static_cast<float>(-result);
    }
    __syncthreads();
    if (a.gradients == nullptr) return;
    auto gradient_at = [&](int64_t t, int64_t c) -> float & {
        return a.gradients[t * a.grad_strides[0] + n * a.grad_strides[1] + c * a.grad_strides[2]];
    };
    const bool impossible = log_p == -CUDART_INF;
    if (impossible && !a.zero_impossible) return;
    const int64_t zero_from = impossible ? 0 : steps;
    for (int64_t e = tid; e < (a.steps - zero_from) * a.classes; e += kThreads)
        gradient_at(zero_from + e / a.classes, e % a.classes) = 0.0f;
    if (impossible) return;

    // Posteriors of the letters not in the label stay 0; the label's letters are rewritten every step.
    for (int64_t c = tid; c < a.classes; c += kThreads) posterior[c] = 0.0;
    // beta leaves out step t's own probability: alpha_t(s) beta_t(s) / P is the posterior of s at t.
    int current_row = 0;
    for (int s = tid; s < S; s += kThreads) beta_rows[0][s] = s >= S - 2 ? 0.0 : -CUDART_INF;
    __syncthreads();
    for (int t = steps - 1; t >= 0; --t) {
        if (t < steps - 1) {
            const double *next = beta_rows[current_row];
            double *current = beta_rows[current_row ^ 1];
            for (int s = tid; s < S; s += kThreads) {
                double sum = next[s] + log_prob(t + 1, extended(s));
                if (s + 1 < S) sum = log_add(sum, next[s + 1] + log_prob(t + 1, extended(s + 1)));
                if (s + 2 < S && can_skip(s + 2)) sum = log_add(sum, next[s + 2] + log_prob(t + 1, extended(s + 2)));
                current[s] = sum;
            }
            current_row ^= 1;
            __syncthreads();
        }
        const double *beta = beta_rows[current_row];
        const double *alpha_t = alpha + static_cast<int64_t>(t) * S;
        auto share = [&](int s) {
            const double log_share = alpha_t[s] + beta[s] - log_p;
            return log_share == -CUDART_INF ? 0.0 : exp(log_share);
        };
        double blank = 0.0;
        for (int s = 2 * tid; s < S; s += 2 * kThreads) blank += share(s);
        blank = block_reduce<false>(blank, scratch);
        for (int i = tid; i < length; i += kThreads) {
            if (!first_of_letter[i]) continue;
            double sum = 0.0;
            for (int j = i; j >= 0; j = next_repeat[j]) sum += share(2 * j + 1);
            posterior[label[i]] = sum;
        }
        __syncthreads();
        for (int64_t c = tid; c < a.classes; c += kThreads) {
            const double p = a.softmax ? exp(input(t, c) - normaliser[t]) : input(t, c);
            gradient_at(t, c) = static_cast<float>(p - (c == 0 ? blank : posterior[c]));
        }
        __syncthreads();
    }
}

}  // namespace

Status ctc_loss(cudaStream_t stream, const CtcLossProblem &p, const CtcLossBuffers &b, void *workspace) {
    const CtcWorkspaceLayout layout = ctc_workspace_layout(p);
    CtcArgs a{};
    a.steps = p.steps();
    a.batch = p.batch();
    a.classes = p.classes();
    for (int i = 0; i < 3; ++i) {
        a.probs_strides[i] = p.probs.strides[i];
        a.grad_strides[i] = p.has_gradients() ? p.gradients.strides[i] : 0;
    }
    a.probs = static_cast<const float *>(b.probs);
    a.gradients = p.has_gradients() ? static_cast<float *>(b.gradients) : nullptr;
    a.costs = static_cast<float *>(b.costs);
    a.labels = b.labels;
    a.label_lengths = b.label_lengths;
    a.input_lengths = b.input_lengths;
    a.workspace = static_cast<double *>(workspace);
    a.per_sequence = layout.per_sequence;
    a.alpha = layout.alpha;
    a.normaliser = layout.normaliser;
    a.posterior = layout.posterior;
    a.max_label = p.max_label_length;
    a.softmax = p.normalization == CUDNN_LOSS_NORMALIZATION_SOFTMAX;
    a.zero_impossible = p.grad_mode == CUDNN_NOT_PROPAGATE_NAN;
    if (!p.lengths_on_device) {
        // Host arrays: copied into the workspace's tail in stream order (from pageable memory the copy
        // has read them when cudaMemcpyAsync returns).
        int *copy = reinterpret_cast<int *>(static_cast<uint8_t *>(workspace) + layout.label_bytes_offset);
        const size_t label_count = static_cast<size_t>(p.label_count()), batch = static_cast<size_t>(p.batch());
        const struct {
            int *to;
            const int *from;
            size_t count;
        } copies[] = {{copy, b.labels, label_count},
                      {copy + label_count, b.label_lengths, batch},
                      {copy + label_count + batch, b.input_lengths, batch}};
        for (const auto &c : copies) {
            if (c.count == 0) continue;
            const cudaError_t error = LIBREDNN_CUDA_SITE(
                async_copy, cudaMemcpyAsync(c.to, c.from, c.count * sizeof(int), cudaMemcpyHostToDevice, stream));
            if (error != cudaSuccess) return cuda_failure(error, "copying the CTC labels and lengths to the device");
        }
        a.labels = copy;
        a.label_lengths = copy + label_count;
        a.input_lengths = copy + label_count + batch;
    }
    if (a.batch == 0) return CUDNN_STATUS_SUCCESS;
    ctc_loss_kernel<<<static_cast<unsigned>(a.batch), kThreads, 0, stream>>>(a);
    return check_launch("ctc_loss_kernel");
}

}  // namespace librednn::cuda
