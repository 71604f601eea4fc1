// Layout (and type) conversion (cudnnTransformTensor): y = alpha * x + beta * y with x and y in their
// own packed layouts. Keys as LibreDNN's transform problems print them (docs/PROBLEMS_OPS.md), plus
// from= and to= as shorthands for x's and y's layouts.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct TransformParams {
    TensorOperand x, y;  // x is the main tensor
    double alpha = 1, beta = 0;
};

class TransformOperation : public Operation {
public:
    TransformOperation(const TransformParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        BENCH_TRY(make_tensor(*context_.library, p_.x, &x_desc_));
        return make_tensor(*context_.library, p_.y, &y_desc_);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.y.type), beta(p_.beta, p_.y.type);
        return BENCH_CALL(*context_.library, cudnnTransformTensor, context_.handle, alpha.get(), x_desc_.get(), t[0],
                          beta.get(), y_desc_.get(), t[1]);
    }

private:
    TransformParams p_;
    Context context_;
    TensorDescriptor x_desc_, y_desc_;
};

class TransformProblem : public Problem {
public:
    explicit TransformProblem(const TransformParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "transform");
        write_main_tensor(&text, p_.x);
        write_operand(&text, "x", p_.x, p_.x);
        write_operand(&text, "y", p_.y, p_.x);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        return {{"x", Role::input, p_.x.type, p_.x.shape.elements()},
                {"y", p_.beta != 0 ? Role::inout : Role::output, p_.y.type, p_.y.shape.elements()}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<TransformOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    TransformParams p_;
};

}  // namespace

ParseResult parse_transform(const ProblemString &text, const ProblemDefaults &defaults,
                            std::unique_ptr<Problem> *problem, std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "transform");
    TransformParams p;
    const TensorOperand main = keys.main_tensor(defaults);
    const std::string from = keys.choice("from", {"nchw", "nhwc"}, defaults.layout);
    const std::string to = keys.choice("to", {"nchw", "nhwc"}, from);
    p.x = keys.operand("x", main, from);
    p.y = keys.operand("y", main, to, true);
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<TransformProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
