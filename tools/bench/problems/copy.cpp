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

class CopyOperation : public Operation {
public:
    CopyOperation(size_t bytes, MemoryKind memory) : bytes_(bytes), memory_(memory) {}

    Outcome run(const TensorPointers &t, void *, size_t) override { return copy_memory(memory_, t[1], t[0], bytes_); }

private:
    size_t bytes_;
    MemoryKind memory_;
};

class CopyProblem : public Problem {
public:
    explicit CopyProblem(const TensorOperand &x) : x_(x) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "copy");
        write_main_tensor(&text, x_);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        return {{"x", Role::input, x_.type, x_.shape.elements()}, {"y", Role::output, x_.type, x_.shape.elements()}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        *outcome = Outcome::success();
        return std::make_unique<CopyOperation>(tensors()[0].bytes(), context.memory);
    }

private:
    TensorOperand x_;
};

}  // namespace

ParseResult parse_copy(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                       std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "copy");
    const TensorOperand x = keys.main_tensor(defaults);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<CopyProblem>(x);
    return ParseResult::ok;
}

}  // namespace librednn::bench
