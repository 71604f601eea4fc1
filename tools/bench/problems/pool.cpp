// Pooling forward and backward (cudnnPoolingForward/Backward): max, deterministic max, average with or
// without the padding counted. Tensors written as LibreDNN's op problems write them.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct PoolingParams {
    std::string mode = "max";  // max, max_det, avg_incl, avg_excl
    bool backward = false;
    bool propagate_nan = false;
    TensorOperand x, y, dy, dx;  // x is the main tensor; y and dy have the output's extents
    std::pair<int64_t, int64_t> window{2, 2}, pad{0, 0}, stride{2, 2};
    double alpha = 1, beta = 0;

    bool is_max() const { return mode == "max" || mode == "max_det"; }
    cudnnPoolingMode_t cudnn_mode() const {
        if (mode == "max_det") return CUDNN_POOLING_MAX_DETERMINISTIC;
        if (mode == "avg_incl") return CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING;
        if (mode == "avg_excl") return CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING;
        return CUDNN_POOLING_MAX;
    }
    // cuDNN's output size: 1 + (in + 2 * pad - window) / stride, rounded down.
    Shape output_shape() const {
        const Shape &in = x.shape;
        return Shape{in.n, in.c, 1 + (in.h + 2 * pad.first - window.first) / stride.first,
                     1 + (in.w + 2 * pad.second - window.second) / stride.second};
    }
};

class PoolingOperation : public Operation {
public:
    PoolingOperation(const PoolingParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.y, &y_desc_));
        if (p_.backward) {
            BENCH_TRY(make_tensor(library, p_.dy, &dy_desc_));
            BENCH_TRY(make_tensor(library, p_.dx, &dx_desc_));
        }
        BENCH_TRY(create(library, &pooling_));
        return BENCH_CALL(library, cudnnSetPooling2dDescriptor, pooling_.get(), p_.cudnn_mode(),
                          p_.propagate_nan ? CUDNN_PROPAGATE_NAN : CUDNN_NOT_PROPAGATE_NAN,
                          static_cast<int>(p_.window.first), static_cast<int>(p_.window.second),
                          static_cast<int>(p_.pad.first), static_cast<int>(p_.pad.second),
                          static_cast<int>(p_.stride.first), static_cast<int>(p_.stride.second));
    }

    // Backward reads y, which must be forward(x): max pooling finds its argmax by comparing them
    // (tensors: y dy x dx).
    Outcome derive_inputs(const TensorPointers &t) override {
        if (!p_.backward) return Outcome::success();
        const Scalar one(1, p_.x.type), zero(0, p_.x.type);
        return BENCH_CALL(*context_.library, cudnnPoolingForward, context_.handle, pooling_.get(), one.get(),
                          x_desc_.get(), t[2], zero.get(), y_desc_.get(), t[0]);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.x.type), beta(p_.beta, p_.x.type);
        if (!p_.backward)
            return BENCH_CALL(*context_.library, cudnnPoolingForward, context_.handle, pooling_.get(), alpha.get(),
                              x_desc_.get(), t[0], beta.get(), y_desc_.get(), t[1]);
        return BENCH_CALL(*context_.library, cudnnPoolingBackward, context_.handle, pooling_.get(), alpha.get(),
                          y_desc_.get(), t[0], dy_desc_.get(), t[1], x_desc_.get(), t[2], beta.get(), dx_desc_.get(),
                          t[3]);
    }

private:
    PoolingParams p_;
    Context context_;
    TensorDescriptor x_desc_, y_desc_, dy_desc_, dx_desc_;
    PoolingDescriptor pooling_;
};

class PoolingProblem : public Problem {
public:
    explicit PoolingProblem(const PoolingParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "pool");
        text.set("dir", p_.backward ? "bwd" : "fwd");
        text.set("mode", p_.mode);
        text.set("nan", p_.propagate_nan ? "propagate" : "not_propagate");
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
        text.set_dims("window", {p_.window.first, p_.window.second});
        text.set_dims("pad", {p_.pad.first, p_.pad.second});
        text.set_dims("stride", {p_.stride.first, p_.stride.second});
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const cudnnDataType_t type = p_.x.type;
        const int64_t x = p_.x.shape.elements(), y = p_.y.shape.elements();
        if (!p_.backward) return {{"x", Role::input, type, x}, {"y", written, type, y}};
        // Max pooling's gradient needs x (to find each window's maximum) and dy; average pooling's only dy.
        // y is passed but can be recomputed from x, so it is not counted.
        return {{"y", Role::input, type, y, Fill::symmetric, false},
                {"dy", Role::input, type, y},
                {"x", Role::input, type, x, Fill::symmetric, p_.is_max()},
                {"dx", written, type, x}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<PoolingOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    PoolingParams p_;
};

}  // namespace

ParseResult parse_pooling(const ProblemString &text, const ProblemDefaults &defaults, std::unique_ptr<Problem> *problem,
                          std::string *error) {
    std::string default_dir;
    if (!forward_or_backward(text, defaults, &default_dir)) return ParseResult::not_applicable;
    KeyReader keys(text, "pool");
    PoolingParams p;
    p.backward = keys.choice("dir", {"fwd", "bwd"}, default_dir) == "bwd";
    p.mode = keys.choice("mode", {"max", "max_det", "avg_incl", "avg_excl"}, "max");
    p.propagate_nan = keys.choice("nan", {"not_propagate", "propagate"}, "not_propagate") == "propagate";
    const TensorOperand main = keys.main_tensor(defaults);
    p.x = main;
    p.window = keys.pair("window", {2, 2}, 1);
    p.pad = keys.pair("pad", {0, 0}, 0);
    p.stride = keys.pair("stride", p.window, 1);
    const Shape &in = main.shape;
    if (!keys.failed() && (in.h + 2 * p.pad.first < p.window.first || in.w + 2 * p.pad.second < p.window.second))
        keys.fail("the window does not fit the padded input: the output would be empty");
    // y and dy have the output's extents (ydims= and dydims= may say so; they must agree).
    TensorOperand output = main;
    output.shape = keys.failed() ? main.shape : p.output_shape();
    p.x = keys.operand("x", main, defaults.layout);
    p.y = keys.operand("y", output, defaults.layout, false, true);
    if (p.backward) {
        p.dy = keys.operand("dy", output, defaults.layout, false, true);
        p.dx = keys.operand("dx", main, defaults.layout);
    }
    if (!keys.failed() &&
        (!same_extents(p.y.shape, output.shape) || (p.backward && !same_extents(p.dy.shape, output.shape))))
        keys.fail("ydims/dydims must be the pooling's output extents " + std::to_string(output.shape.n) + "x" +
                  std::to_string(output.shape.c) + "x" + std::to_string(output.shape.h) + "x" +
                  std::to_string(output.shape.w));
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<PoolingProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
