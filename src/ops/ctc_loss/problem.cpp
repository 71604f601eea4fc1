// CTC loss problems: the workspace layout, comparison and the problem string both ways.
#include "ops/ctc_loss/problem.hpp"

#include "core/data_type.hpp"
#include "ops/common/problem_tensors.hpp"

#include <algorithm>

namespace librednn {

int64_t CtcLossProblem::label_count() const {
    int64_t count = 0;
    for (int length : label_lengths) count += length;
    return count;
}

bool CtcLossProblem::operator==(const CtcLossProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

CtcWorkspaceLayout ctc_workspace_layout(const CtcLossProblem &p) {
    CtcWorkspaceLayout layout;
    const int64_t S = p.extended_length(), T = p.steps();
    layout.alpha = 0;
    layout.beta = T * S;
    layout.normaliser = layout.beta + 2 * S;
    layout.posterior = layout.normaliser + T;
    layout.per_sequence = layout.posterior + p.classes();
    layout.label_bytes_offset = layout.per_sequence * p.batch() * static_cast<int64_t>(sizeof(double));
    return layout;
}

size_t ctc_loss_workspace_bytes(const CtcLossProblem &p) {
    const CtcWorkspaceLayout layout = ctc_workspace_layout(p);
    size_t bytes = static_cast<size_t>(layout.label_bytes_offset);
    if (!p.lengths_on_device) bytes += static_cast<size_t>(p.label_count() + 2 * p.batch()) * sizeof(int);
    return bytes;
}

const char *ctc_normalization_name(cudnnLossNormalizationMode_t mode) {
    return mode == CUDNN_LOSS_NORMALIZATION_SOFTMAX ? "softmax" : "none";
}

const char *ctc_algorithm_name(cudnnCTCLossAlgo_t algorithm) {
    return algorithm == CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC ? "nondeterministic" : "deterministic";
}

namespace {

std::vector<int64_t> widen(const std::vector<int> &values) {
    return std::vector<int64_t>(values.begin(), values.end());
}

bool read_lengths(const ProblemString &text, const char *key, int64_t count, int64_t high, std::vector<int> *out,
                  std::string *error) {
    std::vector<int64_t> values;
    if (!text.get_dims(key, &values, error)) return false;
    if (static_cast<int64_t>(values.size()) != count) {
        *error = std::string(key) + " needs one length per sequence (" + std::to_string(count) + ")";
        return false;
    }
    for (int64_t v : values) {
        if (v < 0 || v > high) {
            *error = std::string(key) + " holds " + std::to_string(v) + ", outside 0.." + std::to_string(high);
            return false;
        }
    }
    out->assign(values.begin(), values.end());
    return true;
}

}  // namespace

ProblemString to_problem_string(const CtcLossProblem &p) {
    ProblemString out;
    out.set("op", "ctc_loss");
    write_main_tensor(&out, p.probs);
    write_tensor(&out, "probs", p.probs, p.probs);
    if (p.has_gradients()) {
        write_tensor(&out, "grad", p.gradients, p.probs);
    } else {
        out.set("grad", "no");
    }
    if (p.compute_type != CUDNN_DATA_FLOAT) out.set("compute", data_type_short_name(p.compute_type));
    out.set("norm", ctc_normalization_name(p.normalization));
    out.set("nan", nan_option_name(p.grad_mode));
    out.set("algo", p.algorithm == CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC ? "nondet" : "det");
    out.set("max_label", p.max_label_length);
    if (p.lengths_on_device) {
        out.set("lengths_on", "device");
    } else {
        out.set_dims("label_lengths", widen(p.label_lengths));
        out.set_dims("input_lengths", widen(p.input_lengths));
    }
    return out;
}

bool parse_ctc_loss_problem(const ProblemString &text, CtcLossProblem *problem, std::string *error) {
    CtcLossProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "ctc_loss") {
        *error = "op=" + value + " is not a CTC loss problem (op=ctc_loss)";
        return false;
    }
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (main.nb_dims != 3) {
        *error = "a CTC loss problem has dims TxNxA";
        return false;
    }
    if (!read_tensor(text, "probs", main, &p.probs, error)) return false;
    std::string grad;
    if (!text.get("grad", &grad, "yes", error)) return false;
    if (grad == "yes") {
        if (!read_tensor(text, "grad", main, &p.gradients, error)) return false;
    } else if (grad != "no") {
        *error = "grad=" + grad + ": yes or no";
        return false;
    }
    if (!read_compute_type(text, CUDNN_DATA_FLOAT, &p.compute_type, error)) return false;
    if (!text.get("norm", &value, "none", error)) return false;
    if (value != "none" && value != "softmax") {
        *error = "norm=" + value + ": none or softmax";
        return false;
    }
    p.normalization = value == "softmax" ? CUDNN_LOSS_NORMALIZATION_SOFTMAX : CUDNN_LOSS_NORMALIZATION_NONE;
    if (!read_nan_option(text, &p.grad_mode, error)) return false;
    if (!text.get("algo", &value, "det", error)) return false;
    if (value != "det" && value != "nondet") {
        *error = "algo=" + value + ": det or nondet";
        return false;
    }
    p.algorithm = value == "det" ? CUDNN_CTC_LOSS_ALGO_DETERMINISTIC : CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC;
    int64_t max_label = 0;
    if (!text.get_int("max_label", &max_label, kMaxCtcLabelLength, error)) return false;
    if (max_label < 0 || max_label > (1 << 20)) {
        *error = "max_label=" + std::to_string(max_label) + " is out of range";
        return false;
    }
    p.max_label_length = static_cast<int>(max_label);
    if (!text.get("lengths_on", &value, "host", error)) return false;
    if (value != "host" && value != "device") {
        *error = "lengths_on=" + value + ": host or device";
        return false;
    }
    p.lengths_on_device = value == "device";
    if (!p.lengths_on_device) {
        if (!read_lengths(text, "label_lengths", p.batch(), kMaxCtcLabelLength, &p.label_lengths, error) ||
            !read_lengths(text, "input_lengths", p.batch(), p.steps(), &p.input_lengths, error))
            return false;
    }
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
