// Divisive normalisation problems: comparison, the problem string both ways, and the in-place plan.
#include "ops/divnorm/problem.hpp"

#include "core/data_type.hpp"
#include "ops/common/problem_tensors.hpp"
#include "ops/lrn/problem.hpp"

#include <cmath>

namespace librednn {

namespace {

// Reads `key` as given (the default) or none.
bool read_given(const ProblemString &text, const char *key, bool *given, std::string *error) {
    std::string value;
    text.get(key, &value, "given", error);
    if (value != "given" && value != "none") {
        *error = std::string(key) + "=" + value + " must be given or none";
        return false;
    }
    *given = value == "given";
    return true;
}

}  // namespace

double DivNormProblem::scale() const { return lrn_alpha / std::pow(static_cast<double>(n), spatial_dims()); }

bool DivNormProblem::operator==(const DivNormProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const DivNormProblem &p) {
    ProblemString out;
    out.set("op", "divnorm");
    out.set("dir", direction_name(p.direction));
    write_main_tensor(&out, p.x);
    write_tensor(&out, "x", p.x, p.x);
    if (p.direction == Direction::forward) {
        write_tensor(&out, "y", p.y, p.x);
    } else {
        write_tensor(&out, "dx", p.dx, p.x);
    }
    write_lrn_parameters(&out, p.n, p.lrn_alpha, p.lrn_beta, p.lrn_k);
    out.set("alpha", p.alpha);
    out.set("beta", p.beta);
    if (!p.means) out.set("means", "none");
    if (p.direction == Direction::backward && !p.d_means) out.set("dmeans", "none");
    if (p.in_place) out.set("in_place", "yes");
    return out;
}

bool parse_divnorm_problem(const ProblemString &text, DivNormProblem *problem, std::string *error) {
    DivNormProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "divnorm") {
        *error = "op=" + value + " is not a divisive normalisation problem (op=divnorm)";
        return false;
    }
    if (!read_direction(text, &p.direction, error)) return false;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "x", main, &p.x, error)) return false;
    if (!read_tensor(text, p.direction == Direction::forward ? "y" : "dx", main,
                     p.direction == Direction::forward ? &p.y : &p.dx, error))
        return false;
    if (!read_lrn_parameters(text, &p.n, &p.lrn_alpha, &p.lrn_beta, &p.lrn_k, error)) return false;
    if (!text.get_double("alpha", &p.alpha, 1.0, error) || !text.get_double("beta", &p.beta, 0.0, error)) return false;
    if (!read_given(text, "means", &p.means, error)) return false;
    if (p.direction == Direction::backward && !read_given(text, "dmeans", &p.d_means, error)) return false;
    if (!read_yes_no(text, "in_place", &p.in_place, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

DivNormPlan plan_divnorm_buffers(const DivNormProblem &p, const DivNormBuffers &b) {
    DivNormPlan plan;
    plan.buffers = b;
    plan.copy_bytes = static_cast<size_t>(p.x.span_elements()) * data_type_size(p.x.dtype);
    const void *outputs[2] = {b.result, p.direction == Direction::backward ? b.d_means : nullptr};
    void *temporaries[2] = {b.temp, b.temp2};
    const void **inputs[3] = {&plan.buffers.x, &plan.buffers.means, &plan.buffers.dy};
    for (const void **input : inputs) {
        const void *memory = *input;
        if (memory == nullptr || (memory != outputs[0] && memory != outputs[1])) continue;
        // An input already copied (x and means may be one memory) reads the same copy.
        int copy = 0;
        while (copy < plan.copy_count && plan.copies[copy].from != memory) ++copy;
        if (copy == plan.copy_count) {
            if (copy == 2) break;  // not reached: the API refuses dx == dMeans
            plan.copies[copy].from = memory;
            plan.copies[copy].to = temporaries[copy];
            ++plan.copy_count;
        }
        *input = plan.copies[copy].to;
    }
    return plan;
}

}  // namespace librednn
