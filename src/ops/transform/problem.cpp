// Transform problems: what they do, comparison, and the problem string both ways.
#include "ops/transform/problem.hpp"

#include "ops/common/problem_tensors.hpp"

#include <vector>

namespace librednn {

bool TransformProblem::folds() const {
    for (int i = 0; i + 2 < x.nb_dims; ++i) {
        if (fold[i] > 1) return true;
    }
    return false;
}

bool TransformProblem::writes_outright() const {
    for (int i = 0; i < x.nb_dims; ++i) {
        if (pad_before[i] > 0 || pad_after[i] > 0) return true;
    }
    return folds() && !unfold;
}

bool TransformProblem::reshapes() const {
    for (int i = 0; i < x.nb_dims; ++i) {
        if (pad_before[i] != 0 || pad_after[i] != 0) return true;
    }
    return folds();
}

bool TransformProblem::operator==(const TransformProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const TransformProblem &problem) {
    ProblemString out;
    out.set("op", "transform");
    write_main_tensor(&out, problem.x);
    write_tensor(&out, "x", problem.x, problem.x);
    write_tensor(&out, "y", problem.y, problem.x);
    const int nb_dims = problem.x.nb_dims;
    if (problem.reshapes()) {
        out.set_dims("pad_before", std::vector<int64_t>(problem.pad_before, problem.pad_before + nb_dims));
        out.set_dims("pad_after", std::vector<int64_t>(problem.pad_after, problem.pad_after + nb_dims));
    }
    if (problem.folds()) {
        out.set_dims("fold", std::vector<int64_t>(problem.fold, problem.fold + (nb_dims > 2 ? nb_dims - 2 : 0)));
        out.set("fold_dir", problem.unfold ? "unfold" : "fold");
    }
    out.set("alpha", problem.alpha);
    out.set("beta", problem.beta);
    return out;
}

bool parse_transform_problem(const ProblemString &text, TransformProblem *problem, std::string *error) {
    TransformProblem result;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "transform") {
        *error = "op=" + value + " is not a transform problem";
        return false;
    }
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "x", main, &result.x, error) || !read_tensor(text, "y", main, &result.y, error))
        return false;
    const size_t nb_dims = static_cast<size_t>(result.x.nb_dims);
    std::vector<int64_t> values;
    for (const char *key : {"pad_before", "pad_after"}) {
        if (!text.has(key)) continue;
        if (!text.get_dims(key, &values, error)) return false;
        if (values.size() != nb_dims) {
            *error = std::string(key) + " needs one value per dim";
            return false;
        }
        int32_t *target = std::string(key) == "pad_before" ? result.pad_before : result.pad_after;
        for (size_t i = 0; i < nb_dims; ++i) target[i] = static_cast<int32_t>(values[i]);
    }
    if (text.has("fold")) {
        if (!text.get_dims("fold", &values, error)) return false;
        if (values.size() + 2 != nb_dims) {
            *error = "fold needs one value per spatial dim";
            return false;
        }
        for (size_t i = 0; i < values.size(); ++i) result.fold[i] = static_cast<uint32_t>(values[i]);
    }
    text.get("fold_dir", &value, "fold", error);
    if (value != "fold" && value != "unfold") {
        *error = "fold_dir=" + value + " must be fold or unfold";
        return false;
    }
    result.unfold = value == "unfold";
    if (!text.get_double("alpha", &result.alpha, 1.0, error)) return false;
    if (!text.get_double("beta", &result.beta, 0.0, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = result;
    return true;
}

}  // namespace librednn
