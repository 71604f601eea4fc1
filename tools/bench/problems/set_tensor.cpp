// Filling and scaling a tensor in place: cudnnSetTensor (y = value, y never read) and cudnnScaleTensor
// (y = alpha * y). Keys as LibreDNN's set_tensor and scale_tensor problems print them
// (docs/PROBLEMS.md); one file, as in LibreDNN, since they share everything but the call.
#include "problems/descriptors.hpp"
#include "problems/families.hpp"
#include "problems/keys.hpp"

#include <cmath>

namespace librednn::bench {

namespace {

struct SetTensorParams {
    bool scale = false;  // cudnnScaleTensor, else cudnnSetTensor
    TensorOperand y;
    // set: the value, already in y's data type (cuDNN takes it as one element of y's type);
    // scale: alpha, already rounded to float (double for double data), as cuDNN reads it.
    double value = 0;
};

class SetTensorOperation : public Operation {
public:
    SetTensorOperation(const SetTensorParams &params, const Context &context) : p_(params), context_(context) {
        encode(p_.y.type, &p_.value, 1, value_bytes_);
    }

    Outcome bind() { return make_tensor(*context_.library, p_.y, &y_desc_); }

    Outcome run(const TensorPointers &t, void *, size_t) override {
        if (p_.scale) {
            const Scalar alpha(p_.value, p_.y.type);
            return BENCH_CALL(*context_.library, cudnnScaleTensor, context_.handle, y_desc_.get(), t[0], alpha.get());
        }
        return BENCH_CALL(*context_.library, cudnnSetTensor, context_.handle, y_desc_.get(), t[0],
                          static_cast<const void *>(value_bytes_));
    }

private:
    SetTensorParams p_;
    Context context_;
    TensorDescriptor y_desc_;
    alignas(8) unsigned char value_bytes_[8] = {};  // the set value as one element of y's type
};

class SetTensorProblem : public Problem {
public:
    explicit SetTensorProblem(const SetTensorParams &params) : p_(params) {}

    ProblemString describe() const override {
        ProblemString text;
        text.set("op", p_.scale ? "scale_tensor" : "set_tensor");
        write_main_tensor(&text, p_.y);
        write_operand(&text, "y", p_.y, p_.y);
        text.set(p_.scale ? "alpha" : "value", p_.value);
        return text;
    }

    // Setting writes y once and never reads it; scaling reads and writes it.
    std::vector<TensorSpec> tensors() const override {
        return {{"y", p_.scale ? Role::inout : Role::output, p_.y.type, p_.y.shape.elements()}};
    }

    std::unique_ptr<Operation> bind(const Context &context, Outcome *outcome) const override {
        auto operation = std::make_unique<SetTensorOperation>(p_, context);
        *outcome = operation->bind();
        if (!outcome->ok()) return nullptr;
        return operation;
    }

private:
    SetTensorParams p_;
};

// `value` as an element of `type` holds it: the nearest half, bfloat16 or float; int8 must be exact.
double rounded_to(cudnnDataType_t type, double value) {
    unsigned char bytes[8] = {};
    encode(type, &value, 1, bytes);
    double rounded = 0;
    decode(type, bytes, 1, &rounded);
    return rounded;
}

ParseResult parse(const ProblemString &text, const ProblemDefaults &defaults, bool scale,
                  std::unique_ptr<Problem> *problem, std::string *error) {
    if (defaults.dir != "fwd" && defaults.dir != "inference") return ParseResult::not_applicable;
    const char *op = scale ? "scale_tensor" : "set_tensor";
    KeyReader keys(text, op);
    SetTensorParams p;
    p.scale = scale;
    const TensorOperand main = keys.main_tensor(defaults);
    p.y = keys.operand("y", main, defaults.layout);
    if (scale) {
        // No default: with alpha = 1 a library may rightly skip the work, and the measurement with it.
        if (!text.has("alpha")) keys.fail("missing key 'alpha' (the factor y is scaled by, e.g. alpha=0.5)");
        p.value = keys.number("alpha", 1);
        // cuDNN reads alpha as a float (a double for double data); the string says what the library gets.
        const cudnnDataType_t alpha_type = p.y.type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        p.value = rounded_to(alpha_type, p.value);
        if (!keys.failed() && !std::isfinite(p.value)) keys.fail("key 'alpha' is beyond the range of a float");
    } else {
        p.value = keys.number("value", 0);
        const double rounded = rounded_to(p.y.type, p.value);
        std::string given, ignored;
        text.get("value", &given, &ignored);
        if (!keys.failed() && is_integer_type(p.y.type) && rounded != p.value)
            keys.fail("key 'value' must be a whole number from -128 to 127 for int8 data; got '" + given + "'");
        if (!keys.failed() && !std::isfinite(rounded))
            keys.fail("key 'value' must be a number " + std::string(data_type_name(p.y.type)) + " holds; got '" +
                      given + "'");
        p.value = rounded;
    }
    if (!keys.finish(error)) return ParseResult::error;
    *problem = std::make_unique<SetTensorProblem>(p);
    return ParseResult::ok;
}

}  // namespace

ParseResult parse_set_tensor(const ProblemString &text, const ProblemDefaults &defaults,
                             std::unique_ptr<Problem> *problem, std::string *error) {
    return parse(text, defaults, false, problem, error);
}

ParseResult parse_scale_tensor(const ProblemString &text, const ProblemDefaults &defaults,
                               std::unique_ptr<Problem> *problem, std::string *error) {
    return parse(text, defaults, true, problem, error);
}

}  // namespace librednn::bench
