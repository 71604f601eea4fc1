// Activation problems: comparison, mode names, and the problem string both ways.
#include "ops/activation/problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

namespace {

// Indexed by cudnnActivationMode_t.
const char *const kModeNames[] = {"sigmoid", "relu", "tanh", "clipped_relu", "elu", "identity", "swish"};
constexpr int kModeCount = sizeof kModeNames / sizeof kModeNames[0];

bool uses_coef(cudnnActivationMode_t mode) {
    return mode == CUDNN_ACTIVATION_CLIPPED_RELU || mode == CUDNN_ACTIVATION_ELU;
}

}  // namespace

bool ActivationProblem::operator==(const ActivationProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

const char *activation_mode_name(cudnnActivationMode_t mode) {
    const int index = static_cast<int>(mode);
    return index >= 0 && index < kModeCount ? kModeNames[index] : nullptr;
}

double default_activation_coef(cudnnActivationMode_t mode) {
    if (mode == CUDNN_ACTIVATION_CLIPPED_RELU) return 6.0;
    if (mode == CUDNN_ACTIVATION_ELU) return 1.0;
    return 0.0;
}

ProblemString to_problem_string(const ActivationProblem &problem) {
    ProblemString out;
    out.set("op", "act");
    out.set("dir", direction_name(problem.direction));
    const char *mode = activation_mode_name(problem.mode);
    out.set("mode", mode ? mode : std::to_string(static_cast<int>(problem.mode)));
    out.set("nan", nan_option_name(problem.nan_opt));
    if (uses_coef(problem.mode)) out.set("coef", problem.coef);
    if (problem.mode == CUDNN_ACTIVATION_SWISH) out.set("swish_beta", problem.swish_beta);
    write_main_tensor(&out, problem.x);
    if (problem.direction == Direction::forward) {
        write_tensor(&out, "x", problem.x, problem.x);
        write_tensor(&out, "y", problem.y, problem.x);
    } else {
        write_tensor(&out, "y", problem.y, problem.x);
        write_tensor(&out, "dy", problem.dy, problem.x);
        write_tensor(&out, "x", problem.x, problem.x);
        write_tensor(&out, "dx", problem.dx, problem.x);
    }
    out.set("alpha", problem.alpha);
    out.set("beta", problem.beta);
    return out;
}

bool parse_activation_problem(const ProblemString &text, ActivationProblem *problem, std::string *error) {
    ActivationProblem result;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "act") {
        *error = "op=" + value + " is not an activation problem (op=act)";
        return false;
    }
    if (!read_direction(text, &result.direction, error)) return false;
    if (!text.get("mode", &value, error)) return false;
    int mode = 0;
    if (!enum_from_name(value, kModeNames, kModeCount, &mode)) {
        *error = "mode=" + value + " must be sigmoid, relu, tanh, clipped_relu, elu, identity or swish";
        return false;
    }
    result.mode = static_cast<cudnnActivationMode_t>(mode);
    if (!read_nan_option(text, &result.nan_opt, error)) return false;
    if (!text.get_double("coef", &result.coef, default_activation_coef(result.mode), error)) return false;
    if (!text.get_double("swish_beta", &result.swish_beta, 1.0, error)) return false;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (!read_tensor(text, "x", main, &result.x, error) || !read_tensor(text, "y", main, &result.y, error))
        return false;
    if (result.direction == Direction::backward) {
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
