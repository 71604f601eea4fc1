// Softmax problems: comparison, names, and the problem string both ways.
#include "ops/softmax/problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

namespace {

const char *const kAlgorithmNames[] = {"fast", "accurate", "log"};  // indexed by cudnnSoftmaxAlgorithm_t
const char *const kModeNames[] = {"instance", "channel"};           // indexed by cudnnSoftmaxMode_t

}  // namespace

bool SoftmaxProblem::operator==(const SoftmaxProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

const char *softmax_algorithm_name(cudnnSoftmaxAlgorithm_t algorithm) {
    const int index = static_cast<int>(algorithm);
    return index >= 0 && index < 3 ? kAlgorithmNames[index] : nullptr;
}

const char *softmax_mode_name(cudnnSoftmaxMode_t mode) {
    const int index = static_cast<int>(mode);
    return index >= 0 && index < 2 ? kModeNames[index] : nullptr;
}

ProblemString to_problem_string(const SoftmaxProblem &problem) {
    ProblemString out;
    out.set("op", "softmax");
    out.set("dir", direction_name(problem.direction));
    const char *algorithm = softmax_algorithm_name(problem.algorithm);
    const char *mode = softmax_mode_name(problem.mode);
    out.set("algo", algorithm ? algorithm : std::to_string(static_cast<int>(problem.algorithm)));
    out.set("mode", mode ? mode : std::to_string(static_cast<int>(problem.mode)));
    const TensorGeometry &main = problem.result();
    write_main_tensor(&out, main);
    if (problem.direction == Direction::forward) {
        write_tensor(&out, "x", problem.x, main);
        write_tensor(&out, "y", problem.y, main);
    } else {
        write_tensor(&out, "y", problem.y, main);
        write_tensor(&out, "dy", problem.dy, main);
        write_tensor(&out, "dx", problem.dx, main);
    }
    out.set("alpha", problem.alpha);
    out.set("beta", problem.beta);
    return out;
}

bool parse_softmax_problem(const ProblemString &text, SoftmaxProblem *problem, std::string *error) {
    SoftmaxProblem result;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "softmax") {
        *error = "op=" + value + " is not a softmax problem (op=softmax)";
        return false;
    }
    if (!read_direction(text, &result.direction, error)) return false;
    int number = 0;
    text.get("algo", &value, "accurate", error);
    if (!enum_from_name(value, kAlgorithmNames, 3, &number)) {
        *error = "algo=" + value + " must be fast, accurate or log";
        return false;
    }
    result.algorithm = static_cast<cudnnSoftmaxAlgorithm_t>(number);
    text.get("mode", &value, "instance", error);
    if (!enum_from_name(value, kModeNames, 2, &number)) {
        *error = "mode=" + value + " must be instance or channel";
        return false;
    }
    result.mode = static_cast<cudnnSoftmaxMode_t>(number);
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "y", main, &result.y, error)) return false;
    if (result.direction == Direction::forward) {
        if (!read_tensor(text, "x", main, &result.x, error)) return false;
    } else {
        if (!read_tensor(text, "dy", main, &result.dy, error) || !read_tensor(text, "dx", main, &result.dx, error))
            return false;
    }
    if (!text.get_double("alpha", &result.alpha, 1.0, error)) return false;
    if (!text.get_double("beta", &result.beta, 0.0, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = result;
    return true;
}

}  // namespace librednn
