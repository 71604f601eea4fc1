// The CTC loss rules.
#include "ops/ctc_loss/validate.hpp"

#include "core/data_type.hpp"
#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "ops/common/type_rules.hpp"

namespace librednn {

Status validate_ctc_loss(const CtcLossProblem &p) {
    if (p.probs.nb_dims != 3) {
        return fail(CUDNN_STATUS_BAD_PARAM, "probsDesc has %d dims: CTC loss takes [T, N, A] (3 dims)",
                    p.probs.nb_dims);
    }
    if (p.has_gradients()) {
        bool same = p.gradients.nb_dims == 3;
        for (int i = 0; same && i < 3; ++i) same = p.gradients.dims[i] == p.probs.dims[i];
        if (!same) {
            return fail(CUDNN_STATUS_BAD_PARAM, "gradientsDesc is %s and probsDesc %s: they must have the same dims",
                        geometry_to_string(p.gradients).c_str(), geometry_to_string(p.probs).c_str());
        }
    }
    if (p.probs.dtype != CUDNN_DATA_FLOAT || (p.has_gradients() && p.gradients.dtype != CUDNN_DATA_FLOAT)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "probs and gradients hold %s and %s: CTC loss takes float only",
                    type_name(p.probs.dtype), type_name(p.has_gradients() ? p.gradients.dtype : p.probs.dtype));
    }
    if (p.compute_type != CUDNN_DATA_FLOAT) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "the CTC loss descriptor's compType is %s: CTC loss computes in float",
                    type_name(p.compute_type));
    }
    if (p.algorithm != CUDNN_CTC_LOSS_ALGO_DETERMINISTIC && p.algorithm != CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "algo is %d, not a cudnnCTCLossAlgo_t (CUDNN_CTC_LOSS_ALGO_DETERMINISTIC or _NON_DETERMINISTIC)",
                    static_cast<int>(p.algorithm));
    }
    if (p.max_label_length > kMaxCtcLabelLength) {
        return fail(CUDNN_STATUS_BAD_PARAM, "labels of up to %d entries (maxLabelLength): CTC loss takes at most %d",
                    p.max_label_length, kMaxCtcLabelLength);
    }
    if (!p.lengths_on_device) {
        const size_t n = static_cast<size_t>(p.batch());
        if (p.label_lengths.size() != n || p.input_lengths.size() != n) {
            return fail(CUDNN_STATUS_BAD_PARAM, "the problem holds %zu label and %zu input lengths for %zu sequences",
                        p.label_lengths.size(), p.input_lengths.size(), n);
        }
        for (size_t i = 0; i < n; ++i) {
            if (p.label_lengths[i] < 0 || p.label_lengths[i] > kMaxCtcLabelLength) {
                return fail(CUDNN_STATUS_BAD_PARAM, "labelLengths[%zu] is %d: a label has 0 to %d entries", i,
                            p.label_lengths[i], kMaxCtcLabelLength);
            }
            if (p.input_lengths[i] < 0 || p.input_lengths[i] > p.steps()) {
                return fail(CUDNN_STATUS_BAD_PARAM, "inputLengths[%zu] is %d: probsDesc has %lld steps", i,
                            p.input_lengths[i], static_cast<long long>(p.steps()));
            }
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status validate_ctc_labels(const CtcLossProblem &p, const int *labels, const int *label_lengths,
                           const int *input_lengths) {
    const int max_length = p.lengths_on_device ? p.max_label_length : kMaxCtcLabelLength;
    int64_t offset = 0;
    for (int64_t n = 0; n < p.batch(); ++n) {
        const int length = label_lengths[n];
        if (length < 0 || length > max_length) {
            return fail(CUDNN_STATUS_BAD_PARAM, "labelLengths[%lld] is %d: a label has 0 to %d entries%s",
                        static_cast<long long>(n), length, max_length,
                        p.lengths_on_device ? " (the descriptor's maxLabelLength)" : "");
        }
        if (input_lengths[n] < 0 || input_lengths[n] > p.steps()) {
            return fail(CUDNN_STATUS_BAD_PARAM, "inputLengths[%lld] is %d: probsDesc has %lld steps",
                        static_cast<long long>(n), input_lengths[n], static_cast<long long>(p.steps()));
        }
        for (int i = 0; i < length; ++i) {
            const int label = labels[offset + i];
            if (label < 1 || label >= p.classes()) {
                return fail(CUDNN_STATUS_BAD_PARAM,
                            "labels[%lld] (entry %d of sequence %lld) is %d: labels are 1 to %lld (0 is the blank)",
                            static_cast<long long>(offset + i), i, static_cast<long long>(n), label,
                            static_cast<long long>(p.classes() - 1));
            }
        }
        offset += length;
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const CtcLossProblem &p, const CtcLossBuffers &b) {
    return require_aligned({{"probs", b.probs, p.probs.dtype},
                            {"labels", b.labels, CUDNN_DATA_INT32},
                            {"labelLengths", b.label_lengths, CUDNN_DATA_INT32},
                            {"inputLengths", b.input_lengths, CUDNN_DATA_INT32},
                            {"costs", b.costs, p.probs.dtype},
                            {"gradients", b.gradients, p.has_gradients() ? p.gradients.dtype : p.probs.dtype}});
}

}  // namespace librednn
