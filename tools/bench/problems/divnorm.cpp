// Divisive normalisation forward and backward (cudnnDivisiveNormalizationForward/Backward, mode
// PRECOMPUTED_MEANS), as LibreDNN's divnorm problems write them (src/ops/divnorm/problem.hpp): 4-d packed
// tensors, out of place. x, means, temp, temp2 and dy share xDesc; dx and dMeans dXdMeansDesc.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"
#include "problems/lrn_keys.hpp"

namespace librednn::bench {

namespace {

struct DivnormParams {
    bool backward = false;
    TensorOperand x, y, dx;  // y forward, dx (and dMeans) backward; all of x's extents
    bool means = true, dmeans = true;
    LrnKeys lrn;
    double alpha = 1, beta = 0;
};

class DivnormOperation : public Operation {
public:
    DivnormOperation(const DivnormParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.backward ? p_.dx : p_.y, &out_desc_));
        return p_.lrn.set(library, &lrn_);
    }

    // tensors: forward x means temp temp2 y; backward x means dy temp temp2 dx dmeans (means and dmeans
    // NULL when the string says none).
    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.x.type), beta(p_.beta, p_.x.type);
        const void *means = p_.means ? t[1] : nullptr;
        if (!p_.backward)
            return BENCH_CALL(*context_.library, cudnnDivisiveNormalizationForward, context_.handle, lrn_.get(),
                              CUDNN_DIVNORM_PRECOMPUTED_MEANS, alpha.get(), x_desc_.get(), t[0], means, t[2], t[3],
                              beta.get(), out_desc_.get(), t[4]);
        return BENCH_CALL(*context_.library, cudnnDivisiveNormalizationBackward, context_.handle, lrn_.get(),
                          CUDNN_DIVNORM_PRECOMPUTED_MEANS, alpha.get(), x_desc_.get(), t[0], means, t[2], t[3], t[4],
                          beta.get(), out_desc_.get(), t[5], p_.dmeans ? t[6] : nullptr);
    }

    // temp and temp2 are scratch space: what a library leaves there is its own business.
    std::string unwritten(size_t tensor) const override {
        const size_t temp = p_.backward ? 3 : 2;
        return tensor == temp || tensor == temp + 1 ? "temp and temp2 are the call's scratch space" : "";
    }

private:
    DivnormParams p_;
    Context context_;
    TensorDescriptor x_desc_, out_desc_;
    LrnDescriptor lrn_;
};

class DivnormProblem : public Problem {
public:
    explicit DivnormProblem(const DivnormParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "divnorm");
        text.set("dir", p_.backward ? "bwd" : "fwd");
        write_main_tensor(&text, p_.x);
        write_operand(&text, "x", p_.x, p_.x);
        write_operand(&text, p_.backward ? "dx" : "y", p_.backward ? p_.dx : p_.y, p_.x);
        p_.lrn.write(&text);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        if (!p_.means) text.set("means", "none");
        if (p_.backward && !p_.dmeans) text.set("dmeans", "none");
        return text;
    }

    // temp and temp2 are the caller's scratch: passed, not counted.
    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const cudnnDataType_t type = p_.x.type;
        const int64_t count = p_.x.shape.elements();
        std::vector<TensorSpec> specs = {{"x", Role::input, type, count},
                                         {"means", Role::input, type, count, Fill::symmetric, p_.means}};
        if (p_.backward) specs.push_back({"dy", Role::input, type, count});
        specs.push_back({"temp", Role::output, type, count, Fill::symmetric, false});
        specs.push_back({"temp2", Role::output, type, count, Fill::symmetric, false});
        if (!p_.backward) {
            specs.push_back({"y", written, type, count});
        } else {
            specs.push_back({"dx", written, type, count});
            specs.push_back({"dmeans", written, type, count, Fill::symmetric, p_.dmeans});
        }
        return specs;
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<DivnormOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    DivnormParams p_;
};

}  // namespace

ParseResult parse_divnorm(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error) {
    std::string default_dir;
    if (!forward_or_backward(text, defaults, &default_dir)) return ParseResult::not_applicable;
    KeyReader keys(text, "divnorm");
    DivnormParams p;
    p.backward = keys.choice("dir", {"fwd", "bwd"}, default_dir) == "bwd";
    const TensorOperand main = keys.main_tensor(defaults);
    p.x = keys.operand("x", main, defaults.layout);
    if (p.backward)
        p.dx = keys.operand("dx", main, defaults.layout);
    else
        p.y = keys.operand("y", main, defaults.layout);
    p.lrn.read(keys);
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    p.means = keys.choice("means", {"given", "none"}, "given") == "given";
    if (p.backward) p.dmeans = keys.choice("dmeans", {"given", "none"}, "given") == "given";
    if (keys.present("in_place")) keys.fail("in_place=yes: the bench runs divisive normalisation out of place only");
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<DivnormProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
