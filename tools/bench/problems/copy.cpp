// The bench's own copy: not a cuDNN call, but what every memory-bound op is measured against. The copy
// ceiling of ../shared/GPU.md (4150 GB/s) was measured on another day with PyTorch; `op=copy` measures
// the copy on the machine of the run, in the run, so a result file can show both. It never calls the
// library: with --vs both columns time the same cudaMemcpyAsync (device to device, on the stream the
// timing events are recorded on), or memcpy on the host. Keys: the main tensor (dtype=, dims= or
// n= c= h= w=); x and y are packed tensors of it, y written from x byte for byte.
#include "memory.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct CopyParams {
    TensorOperand x;
};

size_t bytes_of(const TensorOperand &tensor) {
    return static_cast<size_t>(tensor.shape.elements()) * data_type_size(tensor.type);
}

class CopyOperation : public Operation {
public:
    CopyOperation(const CopyParams &params, const Context &context) : p_(params), memory_(context.memory) {}

    Outcome run(const TensorPointers &t, void *, size_t) override {
        return copy_memory(memory_, t[1], t[0], bytes_of(p_.x));
    }

private:
    CopyParams p_;
    MemoryKind memory_;
};

class CopyProblem : public Problem {
public:
    explicit CopyProblem(const CopyParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "copy");
        write_main_tensor(&text, p_.x);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        return {{"x", Role::input, p_.x.type, p_.x.shape.elements()},
                {"y", Role::output, p_.x.type, p_.x.shape.elements()}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        *outcome = Outcome::success();
        return std::make_unique<CopyOperation>(p_, context);
    }

private:
    CopyParams p_;
};

}  // namespace

ParseResult parse_copy(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                       std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "copy");
    CopyParams p;
    p.x = keys.main_tensor(defaults);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<CopyProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
