// Element-wise tensor operations (cudnnOpTensor): C = op(alpha1 * A, alpha2 * B) + beta * C for add, mul,
// min, max; C = op(alpha1 * A) + beta * C for sqrt and not. B may broadcast (bdims with 1s). Keys as
// LibreDNN's op-tensor problems print them (docs/PROBLEMS.md).
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include "ops/common/problem_tensors.hpp"  // LibreDNN's default compute type (the bench links its core)

namespace librednn::bench {

namespace {

struct OpTensorParams {
    std::string op = "add";
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;
    bool propagate_nan = false;
    TensorOperand a, b, c;  // c is the main tensor
    double alpha1 = 1, alpha2 = 1, beta = 0;

    bool unary() const { return op == "sqrt" || op == "not"; }
    cudnnOpTensorOp_t cudnn_op() const {
        if (op == "mul") return CUDNN_OP_TENSOR_MUL;
        if (op == "min") return CUDNN_OP_TENSOR_MIN;
        if (op == "max") return CUDNN_OP_TENSOR_MAX;
        if (op == "sqrt") return CUDNN_OP_TENSOR_SQRT;
        if (op == "not") return CUDNN_OP_TENSOR_NOT;
        return CUDNN_OP_TENSOR_ADD;
    }
};

class OpTensorOperation : public Operation {
public:
    OpTensorOperation(const OpTensorParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.a, &a_desc_));
        BENCH_TRY(make_tensor(library, p_.b, &b_desc_));
        BENCH_TRY(make_tensor(library, p_.c, &c_desc_));
        BENCH_TRY(create(library, &op_));
        return BENCH_CALL(library, cudnnSetOpTensorDescriptor, op_.get(), p_.cudnn_op(), p_.compute,
                          p_.propagate_nan ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        // The scaling factors follow the compute type.
        const Scalar alpha1(p_.alpha1, p_.compute), alpha2(p_.alpha2, p_.compute), beta(p_.beta, p_.compute);
        return BENCH_CALL(*context_.library, cudnnOpTensor, context_.handle, op_.get(), alpha1.get(), a_desc_.get(),
                          t[0], alpha2.get(), b_desc_.get(), t[1], beta.get(), c_desc_.get(), t[2]);
    }

private:
    OpTensorParams p_;
    Context context_;
    TensorDescriptor a_desc_, b_desc_, c_desc_;
    OpTensorDescriptor op_;
};

class OpTensorProblem : public Problem {
public:
    explicit OpTensorProblem(const OpTensorParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "op_tensor");
        text.set("tensor_op", p_.op);
        text.set("compute", data_type_name(p_.compute));
        text.set("nan", p_.propagate_nan ? "propagate" : "not_propagate");
        write_main_tensor(&text, p_.c);
        write_operand(&text, "a", p_.a, p_.c);
        write_operand(&text, "b", p_.b, p_.c);
        write_operand(&text, "c", p_.c, p_.c);
        text.set("alpha1", p_.alpha1);
        text.set("alpha2", p_.alpha2);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        // sqrt reads only non-negative values; unary ops ignore B (it is passed, not moved).
        return {
            {"a", Role::input, p_.a.type, p_.a.shape.elements(), p_.op == "sqrt" ? Fill::positive : Fill::symmetric},
            {"b", Role::input, p_.b.type, p_.b.shape.elements(), Fill::symmetric, !p_.unary()},
            {"c", written, p_.c.type, p_.c.shape.elements()}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<OpTensorOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    OpTensorParams p_;
};

}  // namespace

ParseResult parse_op_tensor(const ProblemString &text, const ProblemDefaults &defaults,
                            std::unique_ptr<Problem> *problem, std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "op_tensor");
    OpTensorParams p;
    p.op = keys.choice("tensor_op", {"add", "mul", "min", "max", "sqrt", "not"}, "add");
    const TensorOperand main = keys.main_tensor(defaults);
    std::string compute_name =
        keys.choice("compute", {"float", "double", "half"}, data_type_name(default_compute_type(main.type)));
    parse_data_type(compute_name, &p.compute);
    p.propagate_nan = keys.choice("nan", {"not_propagate", "propagate"}, "not_propagate") == "propagate";
    p.a = keys.operand("a", main, defaults.layout, true);
    p.b = keys.operand("b", main, defaults.layout, true, true);
    p.c = keys.operand("c", main, defaults.layout, true);
    p.alpha1 = keys.number("alpha1", 1);
    p.alpha2 = keys.number("alpha2", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.failed() && !broadcasts_to(p.b.shape, p.c.shape))
        keys.fail("bdims must equal dims or be 1 where they differ (B broadcasts onto C)");
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<OpTensorProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
