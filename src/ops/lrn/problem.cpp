// LRN problems: comparison and the problem string both ways.
#include "ops/lrn/problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

bool LrnProblem::operator==(const LrnProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

void write_lrn_parameters(ProblemString *out, unsigned n, double alpha, double beta, double k) {
    out->set("lrn_n", static_cast<long long>(n));
    out->set("lrn_alpha", alpha);
    out->set("lrn_beta", beta);
    out->set("lrn_k", k);
}

bool read_lrn_parameters(const ProblemString &in, unsigned *n, double *alpha, double *beta, double *k,
                         std::string *error) {
    int64_t window = 5;
    if (!in.get_int("lrn_n", &window, 5, error)) return false;
    if (window < CUDNN_LRN_MIN_N || window > CUDNN_LRN_MAX_N) {
        *error = "lrn_n must be " + std::to_string(CUDNN_LRN_MIN_N) + " to " + std::to_string(CUDNN_LRN_MAX_N);
        return false;
    }
    *n = static_cast<unsigned>(window);
    return in.get_double("lrn_alpha", alpha, 1e-4, error) && in.get_double("lrn_beta", beta, 0.75, error) &&
           in.get_double("lrn_k", k, 2.0, error);
}

ProblemString to_problem_string(const LrnProblem &p) {
    ProblemString out;
    out.set("op", "lrn");
    out.set("dir", direction_name(p.direction));
    write_main_tensor(&out, p.x);
    write_tensor(&out, "x", p.x, p.x);
    if (p.direction == Direction::forward) {
        write_tensor(&out, "y", p.y, p.x);
    } else {
        write_tensor(&out, "y", p.y, p.x);
        write_tensor(&out, "dy", p.dy, p.x);
        write_tensor(&out, "dx", p.dx, p.x);
    }
    write_lrn_parameters(&out, p.n, p.lrn_alpha, p.lrn_beta, p.lrn_k);
    out.set("alpha", p.alpha);
    out.set("beta", p.beta);
    if (p.in_place) out.set("in_place", "yes");
    return out;
}

bool parse_lrn_problem(const ProblemString &text, LrnProblem *problem, std::string *error) {
    LrnProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "lrn") {
        *error = "op=" + value + " is not an LRN problem (op=lrn)";
        return false;
    }
    if (!read_direction(text, &p.direction, error)) return false;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "x", main, &p.x, error) || !read_tensor(text, "y", main, &p.y, error)) return false;
    if (p.direction == Direction::backward &&
        (!read_tensor(text, "dy", main, &p.dy, error) || !read_tensor(text, "dx", main, &p.dx, error)))
        return false;
    if (!read_lrn_parameters(text, &p.n, &p.lrn_alpha, &p.lrn_beta, &p.lrn_k, error)) return false;
    if (!text.get_double("alpha", &p.alpha, 1.0, error) || !text.get_double("beta", &p.beta, 0.0, error)) return false;
    if (!read_yes_no(text, "in_place", &p.in_place, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
