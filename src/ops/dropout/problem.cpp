// Dropout problems: comparison and the problem string both ways.
#include "ops/dropout/problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

bool DropoutProblem::operator==(const DropoutProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const DropoutProblem &p) {
    ProblemString out;
    out.set("op", "dropout");
    out.set("dir", direction_name(p.direction));
    write_main_tensor(&out, p.in);
    const bool forward = p.direction == Direction::forward;
    write_tensor(&out, forward ? "x" : "dy", p.in, p.in);
    write_tensor(&out, forward ? "y" : "dx", p.out, p.in);
    out.set("p", static_cast<double>(p.probability));
    if (p.in_place) out.set("in_place", "yes");
    return out;
}

bool parse_dropout_problem(const ProblemString &text, DropoutProblem *problem, std::string *error) {
    DropoutProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "dropout") {
        *error = "op=" + value + " is not a dropout problem (op=dropout)";
        return false;
    }
    if (!read_direction(text, &p.direction, error)) return false;
    const bool forward = p.direction == Direction::forward;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, forward ? "x" : "dy", main, &p.in, error) ||
        !read_tensor(text, forward ? "y" : "dx", main, &p.out, error))
        return false;
    double probability = 0.5;
    if (!text.get_double("p", &probability, 0.5, error)) return false;
    if (!(probability >= 0.0 && probability <= 1.0)) {
        *error = "p must be a probability between 0 and 1";
        return false;
    }
    p.probability = static_cast<float>(probability);
    if (!read_yes_no(text, "in_place", &p.in_place, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
