// cudnnSetTensor / cudnnScaleTensor problems: comparison and the problem string both ways.
#include "ops/tensor/set_tensor_problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

bool SetTensorProblem::operator==(const SetTensorProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const SetTensorProblem &problem) {
    ProblemString out;
    const bool set = problem.kind == SetTensorProblem::Kind::set;
    out.set("op", set ? "set_tensor" : "scale_tensor");
    write_main_tensor(&out, problem.y);
    write_tensor(&out, "y", problem.y, problem.y);
    out.set(set ? "value" : "alpha", problem.value);
    return out;
}

bool parse_set_tensor_problem(const ProblemString &text, SetTensorProblem *problem, std::string *error) {
    SetTensorProblem result;
    std::string op;
    if (!text.get("op", &op, error)) return false;
    if (op != "set_tensor" && op != "scale_tensor") {
        *error = "op=" + op + " is not a set_tensor or scale_tensor problem";
        return false;
    }
    result.kind = op == "set_tensor" ? SetTensorProblem::Kind::set : SetTensorProblem::Kind::scale;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "y", main, &result.y, error)) return false;
    const char *key = result.kind == SetTensorProblem::Kind::set ? "value" : "alpha";
    if (!text.get_double(key, &result.value, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = result;
    return true;
}

}  // namespace librednn
