// CTC loss (cudnnCTCLoss: labels and lengths in host memory), from LibreDNN's CTC problem strings
// (src/ops/ctc_loss/problem.hpp, read with the library's own parser). The labels are data, not part of
// the string: the bench draws them in [1, A) from a fixed sequence. cudnnCTCLoss_v8's strings
// (lengths_on=device) are refused with a reason: their lengths are not in the string.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"

#include "ops/ctc_loss/problem.hpp"

namespace librednn::bench {

namespace {

using librednn::CtcLossProblem;
using librednn::TensorGeometry;

Outcome make_tensor_nd(const Library &library, const TensorGeometry &g, TensorDescriptor *descriptor) {
    BENCH_TRY(create(library, descriptor));
    int dims[8], strides[8];
    for (int i = 0; i < g.nb_dims; ++i)
        dims[i] = static_cast<int>(g.dims[i]), strides[i] = static_cast<int>(g.strides[i]);
    return BENCH_CALL(library, cudnnSetTensorNdDescriptor, descriptor->get(), g.dtype, g.nb_dims, dims, strides);
}

class CtcOperation : public Operation {
public:
    CtcOperation(const CtcLossProblem &problem, const Context &context) : p_(problem), context_(context) {
        // Label n: label_lengths[n] classes in [1, A), a repeat now and then (it needs a blank between).
        const int classes = static_cast<int>(p_.classes());
        for (size_t n = 0; n < p_.label_lengths.size(); ++n)
            for (int i = 0; i < p_.label_lengths[n]; ++i)
                labels_.push_back(1 + static_cast<int>((n * 7 + static_cast<size_t>(i) * 3 + (i % 5 == 4 ? 0 : i)) %
                                                       static_cast<size_t>(classes - 1)));
    }

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor_nd(library, p_.probs, &probs_desc_));
        if (p_.has_gradients()) BENCH_TRY(make_tensor_nd(library, p_.gradients, &gradients_desc_));
        BENCH_TRY(create(library, &ctc_));
        return BENCH_CALL(library, cudnnSetCTCLossDescriptorEx, ctc_.get(), p_.compute_type, p_.normalization,
                          p_.grad_mode);
    }

    Outcome choose(const TensorPointers &) override {
        return BENCH_CALL(*context_.library, cudnnGetCTCLossWorkspaceSize, context_.handle, probs_desc_.get(),
                          gradients_desc_.get(), labels_.data(), p_.label_lengths.data(), p_.input_lengths.data(),
                          p_.algorithm, ctc_.get(), &workspace_);
    }

    size_t workspace_bytes() const override { return workspace_; }

    // tensors: probs costs [gradients]
    Outcome run(const TensorPointers &t, void *workspace, size_t workspace_bytes) override {
        return BENCH_CALL(*context_.library, cudnnCTCLoss, context_.handle, probs_desc_.get(), t[0], labels_.data(),
                          p_.label_lengths.data(), p_.input_lengths.data(), t[1], gradients_desc_.get(),
                          p_.has_gradients() ? t[2] : nullptr, p_.algorithm, ctc_.get(), workspace, workspace_bytes);
    }

private:
    CtcLossProblem p_;
    Context context_;
    std::vector<int> labels_;
    TensorDescriptor probs_desc_, gradients_desc_;
    CtcLossDescriptor ctc_;
    size_t workspace_ = 0;
};

class CtcProblem : public Problem {
public:
    explicit CtcProblem(const CtcLossProblem &problem) : p_(problem) {}

    ProblemString describe() const override { return to_problem_string(p_); }

    // Reads the probabilities once, writes a cost per sequence and the gradients.
    std::vector<TensorSpec> tensors() const override {
        std::vector<TensorSpec> specs = {{"probs", Role::input, CUDNN_DATA_FLOAT, p_.probs.span_elements()},
                                         {"costs", Role::output, CUDNN_DATA_FLOAT, p_.batch()}};
        if (p_.has_gradients())
            specs.push_back({"gradients", Role::output, CUDNN_DATA_FLOAT, p_.gradients.span_elements()});
        return specs;
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<CtcOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    CtcLossProblem p_;
};

}  // namespace

ParseResult parse_ctc_loss(const ProblemString &text, const ProblemDefaults &defaults,
                           std::unique_ptr<Problem> *problem, std::string *error) {
    // One call, costs and gradients together: it runs as the forward direction.
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    CtcLossProblem p;
    if (!parse_ctc_loss_problem(text, &p, error)) return ParseResult::error;
    if (p.lengths_on_device) {
        *error =
            "op=ctc_loss lengths_on=device (cudnnCTCLoss_v8): the bench runs cudnnCTCLoss, whose label and "
            "input lengths the string carries";
        return ParseResult::error;
    }
    if (p.classes() < 2) {
        *error = "op=ctc_loss needs at least 2 classes (the blank and one label)";
        return ParseResult::error;
    }
    *problem = std::make_unique<CtcProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
