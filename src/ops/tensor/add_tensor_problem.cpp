// cudnnAddTensor problems: comparison and the problem string both ways.
#include "ops/tensor/add_tensor_problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

bool AddTensorProblem::operator==(const AddTensorProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const AddTensorProblem &problem) {
    ProblemString out;
    out.set("op", "add_tensor");
    write_main_tensor(&out, problem.c);
    write_tensor(&out, "a", problem.a, problem.c);
    write_tensor(&out, "c", problem.c, problem.c);
    out.set("alpha", problem.alpha);
    out.set("beta", problem.beta);
    return out;
}

bool parse_add_tensor_problem(const ProblemString &text, AddTensorProblem *problem, std::string *error) {
    AddTensorProblem result;
    std::string op;
    if (!text.get("op", &op, error)) return false;
    if (op != "add_tensor") {
        *error = "op=" + op + " is not an add_tensor problem";
        return false;
    }
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "a", main, &result.a, error) || !read_tensor(text, "c", main, &result.c, error))
        return false;
    if (!text.get_double("alpha", &result.alpha, 1.0, error)) return false;
    if (!text.get_double("beta", &result.beta, 1.0, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = result;
    return true;
}

}  // namespace librednn
