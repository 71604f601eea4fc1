// Activation forward and backward (cudnnActivationForward/Backward): relu, sigmoid, tanh, clipped relu,
// elu, identity, swish. Keys as LibreDNN's activation problems print them (docs/PROBLEMS.md).
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include "ops/activation/problem.hpp"  // LibreDNN's default coef per mode (the bench links its core)

namespace librednn::bench {

namespace {

struct ActivationParams {
    std::string mode = "relu";
    bool backward = false;
    bool propagate_nan = false;
    double coef = 0;        // clipped_relu: the ceiling; elu: alpha
    double swish_beta = 1;  // swish: x * sigmoid(swish_beta * x)
    TensorOperand x, y, dy, dx;
    double alpha = 1, beta = 0;

    cudnnActivationMode_t cudnn_mode() const {
        if (mode == "sigmoid") return CUDNN_ACTIVATION_SIGMOID;
        if (mode == "tanh") return CUDNN_ACTIVATION_TANH;
        if (mode == "clipped_relu") return CUDNN_ACTIVATION_CLIPPED_RELU;
        if (mode == "elu") return CUDNN_ACTIVATION_ELU;
        if (mode == "identity") return CUDNN_ACTIVATION_IDENTITY;
        if (mode == "swish") return CUDNN_ACTIVATION_SWISH;
        return CUDNN_ACTIVATION_RELU;
    }
    bool uses_coef() const { return mode == "clipped_relu" || mode == "elu"; }
};

class ActivationOperation : public Operation {
public:
    ActivationOperation(const ActivationParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.y, &y_desc_));
        if (p_.backward) {
            BENCH_TRY(make_tensor(library, p_.dy, &dy_desc_));
            BENCH_TRY(make_tensor(library, p_.dx, &dx_desc_));
        }
        BENCH_TRY(create(library, &activation_));
        BENCH_TRY(BENCH_CALL(library, cudnnSetActivationDescriptor, activation_.get(), p_.cudnn_mode(),
                             p_.propagate_nan ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN, p_.coef));
        if (p_.mode == "swish")
            BENCH_TRY(BENCH_CALL(library, cudnnSetActivationDescriptorSwishBeta, activation_.get(), p_.swish_beta));
        return Outcome::success();
    }

    // Backward reads y, which must be forward(x) (tensors: y dy x dx).
    Outcome derive_inputs(const TensorPointers &t) override {
        if (!p_.backward) return Outcome::success();
        const Scalar one(1, p_.x.type), zero(0, p_.x.type);
        return BENCH_CALL(*context_.library, cudnnActivationForward, context_.handle, activation_.get(), one.get(),
                          x_desc_.get(), t[2], zero.get(), y_desc_.get(), t[0]);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.x.type), beta(p_.beta, p_.x.type);
        if (!p_.backward)
            return BENCH_CALL(*context_.library, cudnnActivationForward, context_.handle, activation_.get(),
                              alpha.get(), x_desc_.get(), t[0], beta.get(), y_desc_.get(), t[1]);
        return BENCH_CALL(*context_.library, cudnnActivationBackward, context_.handle, activation_.get(), alpha.get(),
                          y_desc_.get(), t[0], dy_desc_.get(), t[1], x_desc_.get(), t[2], beta.get(), dx_desc_.get(),
                          t[3]);
    }

private:
    ActivationParams p_;
    Context context_;
    TensorDescriptor x_desc_, y_desc_, dy_desc_, dx_desc_;
    ActivationDescriptor activation_;
};

class ActivationProblem : public Problem {
public:
    explicit ActivationProblem(const ActivationParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "act");
        text.set("dir", p_.backward ? "bwd" : "fwd");
        text.set("mode", p_.mode);
        text.set("nan", p_.propagate_nan ? "propagate" : "not_propagate");
        if (p_.uses_coef()) text.set("coef", p_.coef);
        if (p_.mode == "swish") text.set("swish_beta", p_.swish_beta);
        write_main_tensor(&text, p_.x);
        if (!p_.backward) {
            write_operand(&text, "x", p_.x, p_.x);
            write_operand(&text, "y", p_.y, p_.x);
        } else {
            write_operand(&text, "y", p_.y, p_.x);
            write_operand(&text, "dy", p_.dy, p_.x);
            write_operand(&text, "x", p_.x, p_.x);
            write_operand(&text, "dx", p_.dx, p_.x);
        }
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const cudnnDataType_t type = p_.x.type;
        const int64_t count = p_.x.shape.elements();
        if (!p_.backward) return {{"x", Role::input, type, count}, {"y", written, type, count}};
        // The gradient needs y (relu, sigmoid, tanh, clipped relu, elu: f' is a function of y), x (swish)
        // or neither (identity); the other is passed but not counted as moved.
        const bool needs_x = p_.mode == "swish", needs_y = !needs_x && p_.mode != "identity";
        return {{"y", Role::input, type, count, Fill::symmetric, needs_y},
                {"dy", Role::input, type, count},
                {"x", Role::input, type, count, Fill::symmetric, needs_x},
                {"dx", written, type, count}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<ActivationOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    ActivationParams p_;
};

}  // namespace

ParseResult parse_activation(const ProblemString &text, const ProblemDefaults &defaults,
                             std::unique_ptr<Problem> *problem, std::string *error) {
    std::string default_dir;
    if (!forward_or_backward(text, defaults, &default_dir)) return ParseResult::not_applicable;
    KeyReader keys(text, "act");
    ActivationParams p;
    p.backward = keys.choice("dir", {"fwd", "bwd"}, default_dir) == "bwd";
    p.mode = keys.choice("mode", {"sigmoid", "relu", "tanh", "clipped_relu", "elu", "identity", "swish"}, "relu");
    p.propagate_nan = keys.choice("nan", {"not_propagate", "propagate"}, "not_propagate") == "propagate";
    if (p.uses_coef()) p.coef = keys.number("coef", default_activation_coef(p.cudnn_mode()));
    if (p.mode == "swish") p.swish_beta = keys.number("swish_beta", 1);
    const TensorOperand main = keys.main_tensor(defaults);
    p.x = keys.operand("x", main, defaults.layout);
    p.y = keys.operand("y", main, defaults.layout);
    if (p.backward) {
        p.dy = keys.operand("dy", main, defaults.layout);
        p.dx = keys.operand("dx", main, defaults.layout);
    }
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<ActivationProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
