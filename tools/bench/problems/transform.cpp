// Layout (and type) conversion: y = alpha * T(x) + beta * y with x and y in their own packed layouts.
// Without padding or folding it is cudnnTransformTensor; with them (pad_before, pad_after, fold) it is
// cudnnTransformTensorEx with a tensor transform descriptor, y's dims following from x's. Keys as
// LibreDNN's transform problems print them (docs/PROBLEMS.md), plus from= and to= as shorthands
// for x's and y's layouts.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include "ops/transform/validate.hpp"  // LibreDNN's rule for y's dims (the bench links its core)

#include <algorithm>
#include <cstdint>

namespace librednn::bench {

namespace {

// Pads are cuDNN's int arguments. Fold factors stop at 2^15, so that while y's dims are worked out their
// product (at most 2^30) times a padded dim (below 2^33) stays inside int64; real folds are 2 to 32.
constexpr int64_t kLargestPad = 2147483647LL;
constexpr int64_t kLargestFold = 32768;

struct TransformParams {
    TensorOperand x, y;  // x is the main tensor
    // Per dim in NCHW order; negative values crop. Padding applies to the unfolded geometry: pad then
    // fold, or unfold then pad (as cudnnSetTensorTransformDescriptor defines them).
    int64_t pad_before[4] = {}, pad_after[4] = {};
    int64_t fold[2] = {1, 1};  // height, width
    bool unfold = false;
    double alpha = 1, beta = 0;

    bool folds() const { return fold[0] > 1 || fold[1] > 1; }
    bool reshapes() const {
        for (int i = 0; i < 4; ++i)
            if (pad_before[i] != 0 || pad_after[i] != 0) return true;
        return folds();
    }
    // LibreDNN's transform problem of x with this padding and folding (y left out): what
    // transform_output_dims reads. The parser keeps pads and folds within int32 and uint32.
    librednn::TransformProblem reshaping() const {
        librednn::TransformProblem problem;
        problem.x.nb_dims = 4;
        const int64_t dims[4] = {x.shape.n, x.shape.c, x.shape.h, x.shape.w};
        std::copy(dims, dims + 4, problem.x.dims);
        for (int i = 0; i < 4; ++i) {
            problem.pad_before[i] = static_cast<int32_t>(pad_before[i]);
            problem.pad_after[i] = static_cast<int32_t>(pad_after[i]);
        }
        for (int i = 0; i < 2; ++i) problem.fold[i] = static_cast<uint32_t>(fold[i]);
        problem.unfold = unfold;
        return problem;
    }
    // Elements of x that reach y: all, unless padding crops (the unfolded geometry when unfolding).
    int64_t x_needed() const {
        int64_t dims[4] = {x.shape.n, x.shape.c, x.shape.h, x.shape.w};
        if (unfold) {
            // x unfolded: LibreDNN's y dims for the unfolding alone.
            librednn::TransformProblem unfolding = reshaping();
            std::fill(unfolding.pad_before, unfolding.pad_before + 4, 0);
            std::fill(unfolding.pad_after, unfolding.pad_after + 4, 0);
            std::string ignored;
            transform_output_dims(unfolding, dims, &ignored);
        }
        int64_t needed = 1;
        for (int i = 0; i < 4; ++i)
            needed *= std::max<int64_t>(
                0, dims[i] + std::min<int64_t>(0, pad_before[i]) + std::min<int64_t>(0, pad_after[i]));
        return needed;
    }
};

class TransformOperation : public Operation {
public:
    TransformOperation(const TransformParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.y, &y_desc_));
        if (!p_.reshapes()) return Outcome::success();
        const librednn::TransformProblem reshaping = p_.reshaping();
        BENCH_TRY(create(library, &transform_));
        return BENCH_CALL(library, cudnnSetTensorTransformDescriptor, transform_.get(), 4u, tensor_format(p_.y.layout),
                          reshaping.pad_before, reshaping.pad_after, reshaping.fold,
                          p_.unfold ? CUDNN_TRANSFORM_UNFOLD : CUDNN_TRANSFORM_FOLD);
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Scalar alpha(p_.alpha, p_.y.type), beta(p_.beta, p_.y.type);
        if (p_.reshapes())
            return BENCH_CALL(*context_.library, cudnnTransformTensorEx, context_.handle, transform_.get(), alpha.get(),
                              x_desc_.get(), t[0], beta.get(), y_desc_.get(), t[1]);
        return BENCH_CALL(*context_.library, cudnnTransformTensor, context_.handle, alpha.get(), x_desc_.get(), t[0],
                          beta.get(), y_desc_.get(), t[1]);
    }

private:
    TransformParams p_;
    Context context_;
    TensorDescriptor x_desc_, y_desc_;
    TensorTransformDescriptor transform_;
};

class TransformBenchProblem : public Problem {
public:
    explicit TransformBenchProblem(const TransformParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "transform");
        write_main_tensor(&text, p_.x);
        write_operand(&text, "x", p_.x, p_.x);
        write_operand(&text, "y", p_.y, p_.x);
        if (p_.reshapes()) {
            text.set_dims("pad_before", std::vector<int64_t>(p_.pad_before, p_.pad_before + 4));
            text.set_dims("pad_after", std::vector<int64_t>(p_.pad_after, p_.pad_after + 4));
        }
        if (p_.folds()) {
            text.set_dims("fold", {p_.fold[0], p_.fold[1]});
            text.set("fold_dir", p_.unfold ? "unfold" : "fold");
        }
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    // y is written whole (padding too); of x, what cropping keeps is read.
    std::vector<TensorSpec> tensors() const override {
        TensorSpec x{"x", Role::input, p_.x.type, p_.x.shape.elements()};
        if (p_.x_needed() < x.elements) x.needed = p_.x_needed();
        return {x, {"y", p_.beta != 0 ? Role::inout : Role::output, p_.y.type, p_.y.shape.elements()}};
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

// y's dims as LibreDNN works them out (x unfolded first when unfolding, padded, then folded), within
// the bench's limit of 2^31-1 elements. False with the reason when they do not make such a tensor.
bool transformed_shape(const TransformParams &p, Shape *shape, std::string *reason) {
    int64_t dims[4];
    if (!transform_output_dims(p.reshaping(), dims, reason)) return false;
    // Folding may make c far larger than int: stop multiplying before the product could leave int64.
    int64_t elements = 1;
    for (const int64_t dim : dims) {
        if (dim > 2147483647LL / elements) {
            *reason = "y would have more than 2^31-1 elements";
            return false;
        }
        elements *= dim;
    }
    *shape = Shape{dims[0], dims[1], dims[2], dims[3]};
    return true;
}

}  // namespace

ParseResult parse_transform(const ProblemString &text, const ProblemDefaults &defaults,
                            std::unique_ptr<Problem> *problem, std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    KeyReader keys(text, "transform");
    TransformParams p;
    // layout= would set both sides and silently override from= and to=: one or the other.
    if (keys.present("layout") && (keys.present("from") || keys.present("to")))
        keys.fail("give the layouts either as layout= (both tensors) or as from= and to=, not both");
    const TensorOperand main = keys.main_tensor(defaults);
    const std::string from = keys.choice("from", {"nchw", "nhwc"}, defaults.layout);
    const std::string to = keys.choice("to", {"nchw", "nhwc"}, from);
    p.x = keys.operand("x", main, from);
    const std::vector<int64_t> before =
        keys.integers("pad_before", 4, {0, 0, 0, 0}, -kLargestPad, kLargestPad, "padding before each dim, NxCxHxW");
    const std::vector<int64_t> after =
        keys.integers("pad_after", 4, {0, 0, 0, 0}, -kLargestPad, kLargestPad, "padding after each dim, NxCxHxW");
    const std::vector<int64_t> fold =
        keys.integers("fold", 2, {1, 1}, 1, kLargestFold, "fold factors of height and width");
    std::copy(before.begin(), before.end(), p.pad_before);
    std::copy(after.begin(), after.end(), p.pad_after);
    std::copy(fold.begin(), fold.end(), p.fold);
    p.unfold = keys.choice("fold_dir", {"fold", "unfold"}, "fold") == "unfold" && p.folds();
    TensorOperand transformed = p.x;
    std::string reason;
    if (!keys.failed() && !transformed_shape(p, &transformed.shape, &reason)) keys.fail(reason);
    p.y = keys.operand("y", transformed, to, true, true);
    if (!keys.failed() && !same_extents(p.y.shape, transformed.shape))
        keys.fail("ydims must be x's dims padded and folded, " + std::to_string(transformed.shape.n) + "x" +
                  std::to_string(transformed.shape.c) + "x" + std::to_string(transformed.shape.h) + "x" +
                  std::to_string(transformed.shape.w) + " (or be left out)");
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<TransformBenchProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
