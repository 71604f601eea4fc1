// A benchmark problem: one cuDNN operation described completely by a problem string
// ("op=conv dir=fwd dtype=half ..."), the tensors one call touches, the work it does, and how to set
// it up and run it through a loaded library. One file per op family under problems/ implements it;
// docs/PROBLEMS.md lists the keys of each op.
#pragma once

#include "data.hpp"
#include "loader.hpp"
#include "memory.hpp"
#include "outcome.hpp"
#include "problem/problem_string.hpp"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace librednn::bench {

enum class Layout { nchw, nhwc };
const char *layout_name(Layout layout);
bool parse_layout(const std::string &name, Layout *layout);

// A 4-d tensor's extents; the layout says how they are laid out in memory (always packed).
struct Shape {
    int64_t n = 1, c = 1, h = 1, w = 1;
    int64_t elements() const { return n * c * h * w; }
};

// One packed 4-d tensor operand of a problem: element type, extents and memory layout.
struct TensorOperand {
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    Shape shape;
    Layout layout = Layout::nchw;
};

// How a call uses a tensor: reads it, writes it, or both (y with beta != 0, running statistics).
enum class Role { input, output, inout };

struct TensorSpec {
    std::string name;  // "x", "w", "dy", "running_mean", ...: as the cuDNN documentation names the argument
    Role role = Role::input;
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    int64_t elements = 0;
    Fill fill = Fill::symmetric;
    // Counted in bytes_moved(): the operation must read (or write) it. Some arguments are passed but
    // not needed (activation backward's x for ReLU: y and dy determine dx).
    bool moved = true;
    // Elements the operation must touch when fewer than the tensor holds (a transform that crops x
    // reads only what it keeps); -1: all of them.
    int64_t needed = -1;

    size_t bytes() const { return static_cast<size_t>(elements) * data_type_size(type); }
};

// Bytes an operation must move: each moved input read once, each output written once, each inout both
// (of a tensor the operation touches only in part, the part).
double bytes_moved(const std::vector<TensorSpec> &tensors);

// One pointer per TensorSpec, in the order Problem::tensors() lists them.
using TensorPointers = std::vector<void *>;

// What an operation bound to one library works with.
struct Context {
    const Library *library = nullptr;
    cudnnHandle_t handle = nullptr;
    MemoryKind memory = MemoryKind::host;
};

// A problem set up on one library: its descriptors exist, its algorithm is chosen.
class Operation {
public:
    virtual ~Operation() = default;
    // Picks what must be picked before running (the convolution algorithm: the heuristic's first
    // choice, cuDNN's own search, or a named one). `tensors` is one complete set: cudnnFind…Ex runs on it.
    virtual Outcome choose(const TensorPointers &tensors) { return Outcome::success(); }
    virtual size_t workspace_bytes() const { return 0; }
    // Recomputes inputs that must agree with others, with this library (activation and pooling
    // backward read y, which must be forward(x) for the gradient to be the one a network sees).
    virtual Outcome derive_inputs(const TensorPointers &tensors) { return Outcome::success(); }
    // One call of the operation.
    virtual Outcome run(const TensorPointers &tensors, void *workspace, size_t workspace_bytes) = 0;
    // What the library chose ("algo=1 implicit_precomp_gemm math=tensor_op"); empty when nothing.
    virtual std::string choice() const { return ""; }
    // Why this library leaves output tensor `tensor` (an index into Problem::tensors()) unwritten, once
    // chosen: reduce indices it keeps in a buffer of its own. Empty when it writes it. Check mode does
    // not compare such a tensor.
    virtual std::string unwritten(size_t tensor) const { return ""; }
};

class Problem {
public:
    virtual ~Problem() = default;
    // The canonical problem string: every key, so that it parses back to this same problem.
    virtual ProblemString describe() const = 0;
    std::string text() const { return describe().to_string(); }
    virtual std::vector<TensorSpec> tensors() const = 0;
    // Floating-point operations of one call, for compute-bound ops (0: the op is memory-bound, report GB/s).
    virtual double flops() const { return 0; }
    // Creates the descriptors through the library. Returns null and sets *outcome when it cannot.
    virtual std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const = 0;
};

// What command-line options supply to keys a problem string leaves out (and to every problem of a set).
struct ProblemDefaults {
    int64_t n = 32;
    std::string dtype = "float";
    std::string layout = "nchw";
    // A direction as --dir spells it: fwd, bwd, bwd_data, bwd_filter, inference or step. Each op maps it
    // onto its own key (bn: inference -> phase=inference, fwd -> phase=train_fwd, bwd -> phase=bwd; rnn:
    // step -> dir=step, a whole training step); an op without such a direction skips the pass.
    std::string dir = "fwd";
    std::string math = "default";
    std::string algo = "heuristic";
};

// not_applicable: the string leaves the direction to `defaults.dir` and this op has no such direction
// (bwd_filter of a pooling): the problem is skipped, not an error.
enum class ParseResult { ok, not_applicable, error };

ParseResult parse_problem(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error);
ParseResult parse_problem(const std::string &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error);

// The ops problem strings may name ("conv", "bn", ...), in the order docs/PROBLEMS.md lists them.
std::vector<std::string> known_ops();

}  // namespace librednn::bench
