// Batch normalization: inference, training forward and backward (cudnnBatchNormalization*), per channel
// (spatial, spatial_persistent) or per activation. Tensors written as LibreDNN's op problems write them.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

namespace librednn::bench {

namespace {

struct BatchNormParams {
    std::string mode = "spatial";  // spatial, per_activation, spatial_persistent
    std::string phase = "inference";
    TensorOperand x, y;  // y is dy for the backward phase (x, dy, dx)
    TensorOperand dx;
    double epsilon = 1e-5;
    double factor = 0.1;  // the running averages' update weight (exponentialAverageFactor)
    double alpha = 1, beta = 0;

    cudnnBatchNormMode_t cudnn_mode() const {
        return mode == "per_activation" ? CUDNN_BATCHNORM_PER_ACTIVATION
               : mode == "spatial"      ? CUDNN_BATCHNORM_SPATIAL
                                        : CUDNN_BATCHNORM_SPATIAL_PERSISTENT;
    }
    // Scale, bias, means and variances: float for every data type but double.
    cudnnDataType_t parameter_type() const {
        return x.type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    }
    int64_t parameter_elements() const {
        return mode == "per_activation" ? x.shape.c * x.shape.h * x.shape.w : x.shape.c;
    }
    bool backward() const { return phase == "bwd"; }
};

class BatchNormOperation : public Operation {
public:
    BatchNormOperation(const BatchNormParams &params, const Context &context) : p_(params), context_(context) {}

    Outcome bind() {
        const Library &library = *context_.library;
        BENCH_TRY(make_tensor(library, p_.x, &x_desc_));
        BENCH_TRY(make_tensor(library, p_.y, &y_desc_));
        if (p_.backward()) BENCH_TRY(make_tensor(library, p_.dx, &dx_desc_));
        BENCH_TRY(create(library, &parameter_desc_));
        return BENCH_CALL(library, cudnnDeriveBNTensorDescriptor, parameter_desc_.get(), x_desc_.get(),
                          p_.cudnn_mode());
    }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        const Library &library = *context_.library;
        const cudnnDataType_t type = p_.x.type;
        const Scalar alpha(p_.alpha, type), beta(p_.beta, type), one(1, type), zero(0, type);
        const cudnnTensorDescriptor_t x = x_desc_.get(), y = y_desc_.get(), parameters = parameter_desc_.get();
        if (p_.phase == "inference")  // x y scale bias mean var
            return BENCH_CALL(library, cudnnBatchNormalizationForwardInference, context_.handle, p_.cudnn_mode(),
                              alpha.get(), beta.get(), x, t[0], y, t[1], parameters, t[2], t[3], t[4], t[5],
                              p_.epsilon);
        if (p_.phase == "train_fwd")  // x y scale bias running_mean running_var saved_mean saved_inv_var
            return BENCH_CALL(library, cudnnBatchNormalizationForwardTraining, context_.handle, p_.cudnn_mode(),
                              alpha.get(), beta.get(), x, t[0], y, t[1], parameters, t[2], t[3], p_.factor, t[4], t[5],
                              p_.epsilon, t[6], t[7]);
        // x dy scale saved_mean saved_inv_var dx dscale dbias
        return BENCH_CALL(library, cudnnBatchNormalizationBackward, context_.handle, p_.cudnn_mode(), alpha.get(),
                          beta.get(), one.get(), zero.get(), x, t[0], y, t[1], dx_desc_.get(), t[5], parameters, t[2],
                          t[6], t[7], p_.epsilon, t[3], t[4]);
    }

private:
    BatchNormParams p_;
    Context context_;
    TensorDescriptor x_desc_, y_desc_, dx_desc_, parameter_desc_;
};

class BatchNormProblem : public Problem {
public:
    explicit BatchNormProblem(const BatchNormParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", "bn");
        text.set("mode", p_.mode);
        text.set("phase", p_.phase);
        write_main_tensor(&text, p_.x);
        write_operand(&text, "x", p_.x, p_.x);
        write_operand(&text, p_.backward() ? "dy" : "y", p_.y, p_.x);
        if (p_.backward()) write_operand(&text, "dx", p_.dx, p_.x);
        text.set("eps", p_.epsilon);
        if (p_.phase == "train_fwd") text.set("factor", p_.factor);
        text.set("alpha", p_.alpha);
        text.set("beta", p_.beta);
        return text;
    }

    std::vector<TensorSpec> tensors() const override {
        const Role written = p_.beta != 0 ? Role::inout : Role::output;
        const int64_t elements = p_.x.shape.elements(), parameters = p_.parameter_elements();
        const cudnnDataType_t type = p_.x.type, ptype = p_.parameter_type();
        if (p_.phase == "inference")
            return {{"x", Role::input, type, elements},
                    {"y", written, type, elements},
                    {"scale", Role::input, ptype, parameters, Fill::positive},
                    {"bias", Role::input, ptype, parameters},
                    {"mean", Role::input, ptype, parameters},
                    {"var", Role::input, ptype, parameters, Fill::positive}};
        if (p_.phase == "train_fwd")
            return {{"x", Role::input, type, elements},
                    {"y", written, type, elements},
                    {"scale", Role::input, ptype, parameters, Fill::positive},
                    {"bias", Role::input, ptype, parameters},
                    {"running_mean", Role::inout, ptype, parameters},
                    {"running_var", Role::inout, ptype, parameters, Fill::positive},
                    {"saved_mean", Role::output, ptype, parameters},
                    {"saved_inv_var", Role::output, ptype, parameters}};
        // The saved statistics are inputs here; any values define a gradient, so they are not derived.
        return {{"x", Role::input, type, elements},
                {"dy", Role::input, type, elements},
                {"scale", Role::input, ptype, parameters, Fill::positive},
                {"saved_mean", Role::input, ptype, parameters},
                {"saved_inv_var", Role::input, ptype, parameters, Fill::positive},
                {"dx", written, type, elements},
                {"dscale", Role::output, ptype, parameters},
                {"dbias", Role::output, ptype, parameters}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<BatchNormOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    BatchNormParams p_;
};

}  // namespace

ParseResult parse_batch_norm(const ProblemString &text, const ProblemDefaults &defaults,
                             std::unique_ptr<Problem> *problem, std::string *error) {
    // --dir maps onto the phase: inference, fwd (training forward), bwd.
    std::string default_phase = defaults.dir == "inference" ? "inference"
                                : defaults.dir == "fwd"     ? "train_fwd"
                                : defaults.dir == "bwd"     ? "bwd"
                                                            : "";
    if (!text.has("phase") && default_phase.empty()) return ParseResult::not_applicable;
    KeyReader keys(text, "bn");
    BatchNormParams p;
    p.mode = keys.choice("mode", {"spatial", "per_activation", "spatial_persistent"}, "spatial");
    p.phase = keys.choice("phase", {"inference", "train_fwd", "bwd"}, default_phase);
    const TensorOperand main = keys.main_tensor(defaults);
    p.x = keys.operand("x", main, defaults.layout);
    p.y = keys.operand(p.backward() ? "dy" : "y", main, defaults.layout);
    if (p.backward()) p.dx = keys.operand("dx", main, defaults.layout);
    p.epsilon = keys.number("eps", 1e-5);
    if (p.phase == "train_fwd") p.factor = keys.number("factor", 0.1);
    p.alpha = keys.number("alpha", 1);
    p.beta = keys.number("beta", 0);
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<BatchNormProblem>(p);
    return ParseResult::ok;
}

}  // namespace librednn::bench
