// Reductions (cudnnReduceTensor): C = alpha * reduce(A) + beta * C over the dims where C has extent 1
// and A does not, with the flattened position of the chosen element (indices) for min, max and amax
// when asked. Keys as LibreDNN's reduce problems print them (docs/PROBLEMS.md).
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include "ops/common/problem_tensors.hpp"  // LibreDNN's default compute type
#include "ops/reduce/problem.hpp"          // LibreDNN's names of the reduce ops (the bench links its core)

namespace librednn::bench {

namespace {

// cuDNN writes one 32-bit index per element of C (CUDNN_32BIT_INDICES, the only type the bench asks for).
constexpr size_t kIndexBytes = 4;

struct ReduceParams {
    cudnnReduceTensorOp_t op = CUDNN_REDUCE_TENSOR_ADD;  // named as LibreDNN names it (reduce_op_name)
    cudnnDataType_t compute = CUDNN_DATA_FLOAT;
    bool propagate_nan = false;
    bool indices = false;
    TensorOperand a, c;  // a is the main tensor
    double alpha = 1, beta = 0;
};

// LibreDNN's names of the reduce ops, in cudnnReduceTensorOp_t's order.
std::vector<std::string> reduce_op_names() {
    std::vector<std::string> names;
    for (int op = 0; const char *name = reduce_op_name(static_cast<cudnnReduceTensorOp_t>(op)); ++op)
        names.push_back(name);
    return names;
}

class ReduceOperation : public Operation {
public:
    ReduceOperation(const ReduceParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.a, &a_desc_));
        BENCH_TRY(make_tensor(library, p_.c, &c_desc_));
        BENCH_TRY(create(library, &reduce_));
        return BENCH_CALL(library, cudnnSetReduceTensorDescriptor, reduce_.get(), p_.op, p_.compute,
                          p_.propagate_nan ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN,
                          p_.indices ? CUDNN_REDUCE_TENSOR_FLATTENED_INDICES : CUDNN_REDUCE_TENSOR_NO_INDICES,
                          CUDNN_32BIT_INDICES);
    }

    // The library says how much index and scratch memory it wants. Indices the problem asks for are one
    // of its tensors (compared in check mode); a library that asks more than 4 bytes per element of C,
    // or wants index memory the problem does not ask for, gets a buffer of its own here (and then its
    // indices are not compared).
    Outcome choose(const TensorPointers &) override {
        const Library &library = *context_.library;
        size_t indices_bytes = 0;
        BENCH_TRY(BENCH_CALL(library, cudnnGetReductionIndicesSize, context_.handle, reduce_.get(), a_desc_.get(),
                             c_desc_.get(), &indices_bytes));
        BENCH_TRY(BENCH_CALL(library, cudnnGetReductionWorkspaceSize, context_.handle, reduce_.get(), a_desc_.get(),
                             c_desc_.get(), &workspace_));
        const size_t tensor_bytes = p_.indices ? static_cast<size_t>(p_.c.shape.elements()) * kIndexBytes : 0;
        if (indices_bytes > tensor_bytes) BENCH_TRY(Buffer::allocate(context_.memory, indices_bytes, &own_indices_));
        return Outcome::success();
    }

    size_t workspace_bytes() const override { return workspace_; }

    Outcome run(const TensorPointers &t, void *workspace, size_t workspace_bytes) override {
        const Scalar alpha(p_.alpha, p_.compute), beta(p_.beta, p_.compute);
        void *indices = own_indices_.data() ? own_indices_.data() : p_.indices ? t[2] : nullptr;
        const size_t indices_bytes = own_indices_.data() ? own_indices_.bytes()
                                     : p_.indices        ? static_cast<size_t>(p_.c.shape.elements()) * kIndexBytes
                                                         : 0;
        return BENCH_CALL(*context_.library, cudnnReduceTensor, context_.handle, reduce_.get(), indices, indices_bytes,
                          workspace, workspace_bytes, alpha.get(), a_desc_.get(), t[0], beta.get(), c_desc_.get(),
                          t[1]);
    }

    std::string choice() const override {
        if (!own_indices_.data()) return "";
        return "indices in a separate buffer of " + std::to_string(own_indices_.bytes()) + " bytes (not read back)";
    }

    // Indices the problem asks for stay unwritten when they go to the library's own buffer: its layout
    // there is the library's business.
    std::string unwritten(size_t tensor) const override {
        if (tensor != 2 || !p_.indices || !own_indices_.data()) return "";
        return "keeps them in a buffer of its own (it asked for " + std::to_string(own_indices_.bytes()) +
               " bytes of index memory, more than 4 per element of C)";
    }

private:
    ReduceParams p_;
    Context context_;
    TensorDescriptor a_desc_, c_desc_;
    ReduceTensorDescriptor reduce_;
    size_t workspace_ = 0;
    Buffer own_indices_;
};

class ReduceBenchProblem : public Problem {
public:
    explicit ReduceBenchProblem(const ReduceParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "reduce");
        text.set("reduce_op", reduce_op_name(p_.op));
        text.set("compute", data_type_name(p_.compute));
        text.set("nan", p_.propagate_nan ? "propagate" : "not_propagate");
        text.set("indices", p_.indices ? 1 : 0);
        write_main_tensor(&text, p_.a);
        write_operand(&text, "a", p_.a, p_.a);
        write_operand(&text, "c", p_.c, p_.a);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    // A is read once and C written once (read too when beta != 0); the indices, when asked, are written
    // once. The workspace is the library's business and not counted.
    std::vector<TensorSpec> tensors() const override {
        std::vector<TensorSpec> tensors = {
            {"a", Role::input, p_.a.type, p_.a.shape.elements()},
            {"c", p_.beta != 0 ? Role::inout : Role::output, p_.c.type, p_.c.shape.elements()}};
        if (p_.indices) tensors.push_back({"indices", Role::output, CUDNN_DATA_INT32, p_.c.shape.elements()});
        return tensors;
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<ReduceOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    ReduceParams p_;
};

}  // namespace

ParseResult parse_reduce(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                         std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "reduce");
    ReduceParams p;
    reduce_op_from_name(keys.choice("reduce_op", reduce_op_names(), "add"), &p.op);
    const TensorOperand main = keys.main_tensor(defaults);
    const std::string compute_name =
        keys.choice("compute", {"float", "double"}, data_type_name(default_compute_type(main.type)));
    parse_data_type(compute_name, &p.compute);
    p.propagate_nan = keys.choice("nan", {"not_propagate", "propagate"}, "not_propagate") == "propagate";
    p.indices = keys.choice("indices", {"0", "1"}, "0") == "1";
    p.a = keys.operand("a", main, defaults.layout);
    p.c = keys.operand("c", main, defaults.layout, true, true);
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.failed() && !broadcasts_to(p.c.shape, p.a.shape))
        keys.fail("cdims must equal dims or be 1 where they differ (C holds A reduced over the dims of extent 1)");
    if (!keys.failed() && same_extents(p.c.shape, p.a.shape))
        keys.fail("cdims must give C extent 1 in the dims to reduce (e.g. cdims=1x" + std::to_string(p.a.shape.c) +
                  "x1x1 sums per channel); without it nothing is reduced");
    if (!keys.failed() && p.indices && !reduce_op_has_indices(p.op))
        keys.fail("indices=1 needs reduce_op=min, max or amax (reduce_op=" + std::string(reduce_op_name(p.op)) +
                  " chooses no element)");
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<ReduceBenchProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
