// cudnnOpTensor problems: comparison, names and the problem string both ways.
#include "ops/tensor/op_tensor_problem.hpp"

#include "core/data_type.hpp"
#include "ops/common/problem_tensors.hpp"

namespace librednn {

namespace {

const char *const kOpNames[] = {"add", "mul", "min", "max", "sqrt", "not"};  // indexed by cudnnOpTensorOp_t
constexpr int kOpCount = sizeof kOpNames / sizeof kOpNames[0];

}  // namespace

bool OpTensorProblem::operator==(const OpTensorProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

const char *op_tensor_op_name(cudnnOpTensorOp_t op) {
    const int index = static_cast<int>(op);
    return index >= 0 && index < kOpCount ? kOpNames[index] : nullptr;
}

ProblemString to_problem_string(const OpTensorProblem &problem) {
    ProblemString out;
    out.set("op", "op_tensor");
    const char *name = op_tensor_op_name(problem.op);
    out.set("tensor_op", name ? name : std::to_string(static_cast<int>(problem.op)));
    out.set("compute", data_type_short_name(problem.compute));
    out.set("nan", nan_option_name(problem.nan_opt));
    write_main_tensor(&out, problem.c);
    write_tensor(&out, "a", problem.a, problem.c);
    write_tensor(&out, "b", problem.b, problem.c);
    write_tensor(&out, "c", problem.c, problem.c);
    out.set("alpha1", problem.alpha1);
    out.set("alpha2", problem.alpha2);
    out.set("beta", problem.beta);
    return out;
}

bool parse_op_tensor_problem(const ProblemString &text, OpTensorProblem *problem, std::string *error) {
    OpTensorProblem result;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "op_tensor") {
        *error = "op=" + value + " is not an op_tensor problem";
        return false;
    }
    if (!text.get("tensor_op", &value, error)) return false;
    int op = 0;
    if (!enum_from_name(value, kOpNames, kOpCount, &op)) {
        *error = "tensor_op=" + value + " must be add, mul, min, max, sqrt or not";
        return false;
    }
    result.op = static_cast<cudnnOpTensorOp_t>(op);
    if (!read_nan_option(text, &result.nan_opt, error)) return false;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "a", main, &result.a, error) || !read_tensor(text, "b", main, &result.b, error) ||
        !read_tensor(text, "c", main, &result.c, error))
        return false;
    if (!read_compute_type(text, main.dtype, &result.compute, error)) return false;
    if (!text.get_double("alpha1", &result.alpha1, 1.0, error)) return false;
    if (!text.get_double("alpha2", &result.alpha2, 1.0, error)) return false;
    if (!text.get_double("beta", &result.beta, 0.0, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = result;
    return true;
}

}  // namespace librednn
