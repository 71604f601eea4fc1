// Cross-channel LRN forward and backward (cudnnLRNCrossChannelForward/Backward), as LibreDNN's LRN problems
// write them: lrn_n= lrn_alpha= lrn_beta= lrn_k= (src/ops/lrn/problem.hpp), 4-d packed tensors.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"
#include "problems/lrn_keys.hpp"

namespace librednn::bench {

namespace {

struct LrnParams {
    bool backward = false;
    TensorOperand x, y, dy, dx;  // all of x's extents
    LrnKeys lrn;
    double alpha = 1, beta = 0;
};

class LrnOperation : public Operation {
public:
    LrnOperation(const LrnParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.y, &y_desc_));
        if (p_.backward) {
            BENCH_TRY(make_tensor(library, p_.dy, &dy_desc_));
            BENCH_TRY(make_tensor(library, p_.dx, &dx_desc_));
        }
        return p_.lrn.set(library, &lrn_);
    }

    // Backward takes y, which must be forward(x) (tensors: y dy x dx).
    Outcome derive_inputs(const TensorPointers &t) override {
        if (!p_.backward) return Outcome::success();
        const Scalar one(1, p_.x.type), zero(0, p_.x.type);
        return BENCH_CALL(*context_.library, cudnnLRNCrossChannelForward, context_.handle, lrn_.get(),
                          CUDNN_LRN_CROSS_CHANNEL_DIM1, one.get(), x_desc_.get(), t[2], zero.get(), y_desc_.get(),
                          t[0]);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.x.type), beta(p_.beta, p_.x.type);
        if (!p_.backward)
            return BENCH_CALL(*context_.library, cudnnLRNCrossChannelForward, context_.handle, lrn_.get(),
                              CUDNN_LRN_CROSS_CHANNEL_DIM1, alpha.get(), x_desc_.get(), t[0], beta.get(), y_desc_.get(),
                              t[1]);
        return BENCH_CALL(*context_.library, cudnnLRNCrossChannelBackward, context_.handle, lrn_.get(),
                          CUDNN_LRN_CROSS_CHANNEL_DIM1, alpha.get(), y_desc_.get(), t[0], dy_desc_.get(), t[1],
                          x_desc_.get(), t[2], beta.get(), dx_desc_.get(), t[3]);
    }

private:
    LrnParams p_;
    Context context_;
    TensorDescriptor x_desc_, y_desc_, dy_desc_, dx_desc_;
    LrnDescriptor lrn_;
};

class LrnProblem : public Problem {
public:
    explicit LrnProblem(const LrnParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "lrn");
        text.set("dir", p_.backward ? "bwd" : "fwd");
        write_main_tensor(&text, p_.x);
        write_operand(&text, "x", p_.x, p_.x);
        write_operand(&text, "y", p_.y, p_.x);
        if (p_.backward) {
            write_operand(&text, "dy", p_.dy, p_.x);
            write_operand(&text, "dx", p_.dx, p_.x);
        }
        p_.lrn.write(&text);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    // Forward reads x and writes y; backward reads x and dy and writes dx (y is passed, but x gives it back).
    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const cudnnDataType_t type = p_.x.type;
        const int64_t count = p_.x.shape.elements();
        if (!p_.backward) return {{"x", Role::input, type, count}, {"y", written, type, count}};
        return {{"y", Role::input, type, count, Fill::symmetric, false},
                {"dy", Role::input, type, count},
                {"x", Role::input, type, count},
                {"dx", written, type, count}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<LrnOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    LrnParams p_;
};

}  // namespace

ParseResult parse_lrn(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                      std::string *error) {
    std::string default_dir;
    if (!forward_or_backward(text, defaults, &default_dir)) return ParseResult::not_applicable;
    KeyReader keys(text, "lrn");
    LrnParams p;
    p.backward = keys.choice("dir", {"fwd", "bwd"}, default_dir) == "bwd";
    const TensorOperand main = keys.main_tensor(defaults);
    p.x = keys.operand("x", main, defaults.layout);
    p.y = keys.operand("y", main, defaults.layout);
    if (p.backward) {
        p.dy = keys.operand("dy", main, defaults.layout);
        p.dx = keys.operand("dx", main, defaults.layout);
    }
    p.lrn.read(keys);
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (keys.present("in_place"))
        keys.fail("in_place=yes: the bench runs LRN out of place only (y and x in separate buffers)");
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<LrnProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
