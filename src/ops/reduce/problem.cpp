// Reduction problems: names, comparison and the problem string both ways.
#include "ops/reduce/problem.hpp"

#include "core/data_type.hpp"
#include "ops/common/problem_tensors.hpp"

namespace librednn {

namespace {

// Indexed by cudnnReduceTensorOp_t.
const char *const kOpNames[] = {"add", "mul", "min", "max", "amax", "avg", "norm1", "norm2", "mul_no_zeros"};
constexpr int kOpCount = sizeof kOpNames / sizeof kOpNames[0];

}  // namespace

int64_t ReduceProblem::reduction_length() const {
    int64_t length = 1;
    for (int i = 0; i < a.nb_dims; ++i) {
        if (reduced(i)) length *= a.dims[i];
    }
    return length;
}

bool ReduceProblem::operator==(const ReduceProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

const char *reduce_op_name(cudnnReduceTensorOp_t op) {
    const int index = static_cast<int>(op);
    return index >= 0 && index < kOpCount ? kOpNames[index] : nullptr;
}

bool reduce_op_from_name(const std::string &name, cudnnReduceTensorOp_t *op) {
    int index = 0;
    if (!enum_from_name(name, kOpNames, kOpCount, &index)) return false;
    *op = static_cast<cudnnReduceTensorOp_t>(index);
    return true;
}

bool reduce_op_has_indices(cudnnReduceTensorOp_t op) {
    return op == CUDNN_REDUCE_TENSOR_MIN || op == CUDNN_REDUCE_TENSOR_MAX || op == CUDNN_REDUCE_TENSOR_AMAX;
}

ProblemString to_problem_string(const ReduceProblem &problem) {
    ProblemString out;
    out.set("op", "reduce");
    const char *name = reduce_op_name(problem.op);
    out.set("reduce_op", name ? name : std::to_string(static_cast<int>(problem.op)));
    out.set("compute", data_type_short_name(problem.compute));
    out.set("nan", nan_option_name(problem.nan_opt));
    out.set("indices", problem.indices ? 1 : 0);
    write_main_tensor(&out, problem.a);
    write_tensor(&out, "a", problem.a, problem.a);
    write_tensor(&out, "c", problem.c, problem.a);
    out.set("alpha", problem.alpha);
    out.set("beta", problem.beta);
    return out;
}

bool parse_reduce_problem(const ProblemString &text, ReduceProblem *problem, std::string *error) {
    ReduceProblem result;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "reduce") {
        *error = "op=" + value + " is not a reduce problem";
        return false;
    }
    if (!text.get("reduce_op", &value, error)) return false;
    if (!reduce_op_from_name(value, &result.op)) {
        *error = "reduce_op=" + value + " must be add, mul, min, max, amax, avg, norm1, norm2 or mul_no_zeros";
        return false;
    }
    if (!read_nan_option(text, &result.nan_opt, error)) return false;
    int64_t indices = 0;
    if (!text.get_int("indices", &indices, 0, error)) return false;
    result.indices = indices != 0;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "a", main, &result.a, error) || !read_tensor(text, "c", main, &result.c, error))
        return false;
    if (!read_compute_type(text, main.dtype, &result.compute, error)) return false;
    if (!text.get_double("alpha", &result.alpha, 1.0, error)) return false;
    if (!text.get_double("beta", &result.beta, 0.0, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = result;
    return true;
}

}  // namespace librednn
