// The spatial transformer (cudnnSpatialTfGridGenerator*, cudnnSpatialTfSampler*, bilinear), as LibreDNN's
// spatial_tf problems write them (src/ops/spatial_tf/problem.hpp): stage=grid (theta N x 2 x 3 to the grid
// N x H x W x 2, backward dgrid to dtheta) or stage=sampler (x through the grid into y = dims, backward dx
// and dgrid from dy); 4-d packed tensors.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct SpatialTfParams {
    bool sampler = false, backward = false;
    TensorOperand out;    // the descriptor's dims: the sampler's output (y, dy)
    TensorOperand x, dx;  // the sampler's input and its gradient
    double alpha = 1, beta = 0, alpha_dgrid = 1, beta_dgrid = 0;

    int64_t theta_elements() const { return out.shape.n * 6; }
    int64_t grid_elements() const { return out.shape.n * out.shape.h * out.shape.w * 2; }
};

class SpatialTfOperation : public Operation {
public:
    SpatialTfOperation(const SpatialTfParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(create(library, &st_));
        const int dims[4] = {static_cast<int>(p_.out.shape.n), static_cast<int>(p_.out.shape.c),
                             static_cast<int>(p_.out.shape.h), static_cast<int>(p_.out.shape.w)};
        BENCH_TRY(BENCH_CALL(library, cudnnSetSpatialTransformerNdDescriptor, st_.get(), CUDNN_SAMPLER_BILINEAR,
                             p_.out.type, 4, dims));
        if (!p_.sampler) return Outcome::success();
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.out, &y_desc_));
        if (p_.backward) BENCH_TRY(make_tensor(library, p_.dx, &dx_desc_));
        return Outcome::success();
    }

    // tensors: grid fwd theta grid, bwd dgrid dtheta; sampler fwd x grid y, bwd x dx dy grid dgrid.
    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Library &library = *context_.library;
        if (!p_.sampler) {
            if (!p_.backward)
                return BENCH_CALL(library, cudnnSpatialTfGridGeneratorForward, context_.handle, st_.get(), t[0], t[1]);
            return BENCH_CALL(library, cudnnSpatialTfGridGeneratorBackward, context_.handle, st_.get(), t[0], t[1]);
        }
        const Scalar alpha(p_.alpha, p_.x.type), beta(p_.beta, p_.x.type);
        if (!p_.backward)
            return BENCH_CALL(library, cudnnSpatialTfSamplerForward, context_.handle, st_.get(), alpha.get(),
                              x_desc_.get(), t[0], t[1], beta.get(), y_desc_.get(), t[2]);
        const Scalar alpha_dgrid(p_.alpha_dgrid, p_.x.type), beta_dgrid(p_.beta_dgrid, p_.x.type);
        return BENCH_CALL(library, cudnnSpatialTfSamplerBackward, context_.handle, st_.get(), alpha.get(),
                          x_desc_.get(), t[0], beta.get(), dx_desc_.get(), t[1], alpha_dgrid.get(), y_desc_.get(), t[2],
                          t[3], beta_dgrid.get(), t[4]);
    }

private:
    SpatialTfParams p_;
    Context context_;
    SpatialTransformerDescriptor st_;
    TensorDescriptor x_desc_, y_desc_, dx_desc_;
};

class SpatialTfProblem : public Problem {
public:
    explicit SpatialTfProblem(const SpatialTfParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "spatial_tf");
        text.set("stage", p_.sampler ? "sampler" : "grid");
        text.set("dir", p_.backward ? "bwd" : "fwd");
        write_main_tensor(&text, p_.out);
        if (p_.sampler) {
            write_operand(&text, "x", p_.x, p_.out);
            if (p_.backward) write_operand(&text, "dx", p_.dx, p_.out);
            write_operand(&text, p_.backward ? "dy" : "y", p_.out, p_.out);
            text.set("alpha", p_.alpha);
            text.set("beta", p_.beta);
            if (p_.backward) {
                text.set("alpha_dgrid", p_.alpha_dgrid);
                text.set("beta_dgrid", p_.beta_dgrid);
            }
        }
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        const cudnnDataType_t type = p_.out.type;
        const int64_t theta = p_.theta_elements(), grid = p_.grid_elements();
        if (!p_.sampler) {
            if (!p_.backward) return {{"theta", Role::input, type, theta}, {"grid", Role::output, type, grid}};
            return {{"dgrid", Role::input, type, grid}, {"dtheta", Role::output, type, theta}};
        }
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const int64_t x = p_.x.shape.elements(), y = p_.out.shape.elements();
        if (!p_.backward)
            return {{"x", Role::input, type, x}, {"grid", Role::input, type, grid}, {"y", written, type, y}};
        return {{"x", Role::input, type, x},
                {"dx", written, type, x},
                {"dy", Role::input, type, y},
                {"grid", Role::input, type, grid},
                {"dgrid", p_.beta_dgrid != 0 ? Role::inout : Role::output, type, grid}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<SpatialTfOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    SpatialTfParams p_;
};

}  // namespace

ParseResult parse_spatial_tf(const ProblemString &text, const ProblemDefaults &defaults,
                             std::unique_ptr<Problem> *problem, std::string *error) {
    std::string default_dir;
    if (!forward_or_backward(text, defaults, &default_dir)) return ParseResult::not_applicable;
    KeyReader keys(text, "spatial_tf");
    SpatialTfParams p;
    if (!keys.present("stage")) keys.fail("missing key 'stage' (grid or sampler)");
    p.sampler = keys.choice("stage", {"grid", "sampler"}, "grid") == "sampler";
    p.backward = keys.choice("dir", {"fwd", "bwd"}, default_dir) == "bwd";
    p.out = keys.main_tensor(defaults);
    if (p.sampler) {
        p.x = keys.operand("x", p.out, defaults.layout, false, true);
        if (p.backward) {
            p.dx = keys.operand("dx", p.x, defaults.layout, false, true);
            p.out = keys.operand("dy", p.out, defaults.layout);
        } else {
            p.out = keys.operand("y", p.out, defaults.layout);
        }
        if (!keys.failed() && (p.x.shape.n != p.out.shape.n || p.x.shape.c != p.out.shape.c))
            keys.fail("x must have dims' N and C");
        if (!keys.failed() && p.backward && !same_extents(p.dx.shape, p.x.shape)) keys.fail("dxdims must be xdims");
        p.alpha = keys.number("alpha", 1);
        p.beta = keys.number("beta", 0);
        if (p.backward) {
            p.alpha_dgrid = keys.number("alpha_dgrid", 1);
            p.beta_dgrid = keys.number("beta_dgrid", 0);
        }
    }
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<SpatialTfProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
