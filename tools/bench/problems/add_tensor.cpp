// Adding a tensor into another (cudnnAddTensor): C = alpha * A + beta * C, with A full-size or
// broadcast (adims=1xCx1x1: a bias). Keys as LibreDNN's add-tensor problems print them
// (docs/PROBLEMS.md); op=add is accepted for op=add_tensor.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct AddTensorParams {
    TensorOperand a, c;  // c is the main tensor
    double alpha = 1, beta = 1;
};

class AddTensorOperation : public Operation {
public:
    AddTensorOperation(const AddTensorParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        BENCH_TRY(make_tensor(*context_.library, p_.a, &a_desc_));
        return make_tensor(*context_.library, p_.c, &c_desc_);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.c.type), beta(p_.beta, p_.c.type);
        return BENCH_CALL(*context_.library, cudnnAddTensor, context_.handle, alpha.get(), a_desc_.get(), t[0],
                          beta.get(), c_desc_.get(), t[1]);
    }

private:
    AddTensorParams p_;
    Context context_;
    TensorDescriptor a_desc_, c_desc_;
};

class AddTensorProblem : public Problem {
public:
    explicit AddTensorProblem(const AddTensorParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "add_tensor");
        write_main_tensor(&text, p_.c);
        write_operand(&text, "a", p_.a, p_.c);
        write_operand(&text, "c", p_.c, p_.c);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        return {{"a", Role::input, p_.a.type, p_.a.shape.elements()},
                {"c", p_.beta != 0 ? Role::inout : Role::output, p_.c.type, p_.c.shape.elements()}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<AddTensorOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    AddTensorParams p_;
};

}  // namespace

ParseResult parse_add_tensor(const ProblemString &text, const ProblemDefaults &defaults,
                             std::unique_ptr<Problem> *problem, std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "add_tensor");
    AddTensorParams p;
    const TensorOperand main = keys.main_tensor(defaults);
    p.a = keys.operand("a", main, defaults.layout, true, true);
    p.c = keys.operand("c", main, defaults.layout, true);
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 1);
    if (!keys.failed() && !broadcasts_to(p.a.shape, p.c.shape))
        keys.fail("adims must equal dims or be 1 where they differ (A broadcasts onto C)");
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<AddTensorProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
