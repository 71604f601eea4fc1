// Softmax forward and backward (cudnnSoftmaxForward/Backward): fast, accurate or log; over each
// instance (c*h*w values) or over the channels at each pixel. Keys as LibreDNN's softmax problems
// print them (docs/PROBLEMS.md).
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct SoftmaxParams {
    std::string algo = "accurate";
    std::string mode = "instance";
    bool backward = false;
    TensorOperand x, y, dy, dx;  // forward: x y; backward: y dy dx
    double alpha = 1, beta = 0;

    cudnnSoftmaxAlgorithm_t cudnn_algo() const {
        return algo == "fast" ? CUDNN_SOFTMAX_FAST : algo == "log" ? CUDNN_SOFTMAX_LOG : CUDNN_SOFTMAX_ACCURATE;
    }
    cudnnSoftmaxMode_t cudnn_mode() const {
        return mode == "channel" ? CUDNN_SOFTMAX_MODE_CHANNEL : CUDNN_SOFTMAX_MODE_INSTANCE;
    }
    // The operands in the order the call takes them.
    std::vector<const TensorOperand *> operands() const {
        if (!backward) return {&x, &y};
        return {&y, &dy, &dx};
    }
};

class SoftmaxOperation : public Operation {
public:
    SoftmaxOperation(const SoftmaxParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const std::vector<const TensorOperand *> operands = p_.operands();
        descriptors_.resize(operands.size());
        for (size_t i = 0; i < operands.size(); ++i)
            BENCH_TRY(make_tensor(*context_.library, *operands[i], &descriptors_[i]));
        return Outcome::success();
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const cudnnDataType_t type = p_.operands()[0]->type;
        const Scalar alpha(p_.alpha, type), beta(p_.beta, type);
        if (!p_.backward)
            return BENCH_CALL(*context_.library, cudnnSoftmaxForward, context_.handle, p_.cudnn_algo(), p_.cudnn_mode(),
                              alpha.get(), descriptors_[0].get(), t[0], beta.get(), descriptors_[1].get(), t[1]);
        return BENCH_CALL(*context_.library, cudnnSoftmaxBackward, context_.handle, p_.cudnn_algo(), p_.cudnn_mode(),
                          alpha.get(), descriptors_[0].get(), t[0], descriptors_[1].get(), t[1], beta.get(),
                          descriptors_[2].get(), t[2]);
    }

private:
    SoftmaxParams p_;
    Context context_;
    std::vector<TensorDescriptor> descriptors_;
};

class SoftmaxProblem : public Problem {
public:
    explicit SoftmaxProblem(const SoftmaxParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "softmax");
        text.set("dir", p_.backward ? "bwd" : "fwd");
        text.set("algo", p_.algo);
        text.set("mode", p_.mode);
        const TensorOperand &main = p_.backward ? p_.dx : p_.y;  // the result
        write_main_tensor(&text, main);
        if (!p_.backward) {
            write_operand(&text, "x", p_.x, main);
            write_operand(&text, "y", p_.y, main);
        } else {
            write_operand(&text, "y", p_.y, main);
            write_operand(&text, "dy", p_.dy, main);
            write_operand(&text, "dx", p_.dx, main);
        }
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    // Backward needs only y and dy (dx = y * (dy - sum(dy * y)), or the log form); any y defines it.
    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const TensorOperand &first = *p_.operands()[0];
        const int64_t count = first.shape.elements();
        if (!p_.backward) return {{"x", Role::input, first.type, count}, {"y", written, first.type, count}};
        return {{"y", Role::input, first.type, count},
                {"dy", Role::input, first.type, count},
                {"dx", written, first.type, count}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<SoftmaxOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    SoftmaxParams p_;
};

}  // namespace

ParseResult parse_softmax(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error) {
    std::string default_dir;
    if (!forward_or_backward(text, defaults, &default_dir)) return ParseResult::not_applicable;
    KeyReader keys(text, "softmax");
    SoftmaxParams p;
    p.backward = keys.choice("dir", {"fwd", "bwd"}, default_dir) == "bwd";
    p.algo = keys.choice("algo", {"fast", "accurate", "log"}, "accurate");
    p.mode = keys.choice("mode", {"instance", "channel"}, "instance");
    const TensorOperand main = keys.main_tensor(defaults);
    if (!p.backward) {
        p.x = keys.operand("x", main, defaults.layout);
        p.y = keys.operand("y", main, defaults.layout);
    } else {
        p.y = keys.operand("y", main, defaults.layout);
        p.dy = keys.operand("dy", main, defaults.layout);
        p.dx = keys.operand("dx", main, defaults.layout);
    }
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<SoftmaxProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
