// An activation problem (cudnnActivationForward / cudnnActivationBackward) as a value, with its
// buffers and its problem string ("op=act dir=fwd mode=relu dtype=half dims=... xstrides=...").
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

struct ActivationProblem {
    Direction direction = Direction::forward;
    cudnnActivationMode_t mode = CUDNN_ACTIVATION_RELU;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    double coef = 0.0;        // CLIPPED_RELU: the ceiling; ELU: its alpha; unused by other modes
    double swish_beta = 1.0;  // SWISH: y = x * sigmoid(swish_beta * x)
    // Forward: y = alpha * f(x) + beta * y. Backward: dx = alpha * f'(x) * dy + beta * dx, where f' is
    // computed from y for SIGMOID and TANH and from x for the other modes (docs/NUMERICS.md).
    // Every tensor has the same dims and data type; dy and dx are unused forward.
    TensorGeometry x, y, dy, dx;
    double alpha = 1.0, beta = 0.0;

    // The tensor the problem writes (y forward, dx backward).
    const TensorGeometry &result() const { return direction == Direction::forward ? y : dx; }
    bool operator==(const ActivationProblem &other) const;
};

// Pointers of the backend's memory. `result` is y forward and dx backward; it is read as well when
// beta is not 0. `y` and `dy` are inputs of the backward pass only.
struct ActivationBuffers {
    const void *x = nullptr;
    const void *y = nullptr;
    const void *dy = nullptr;
    void *result = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const ActivationProblem &problem, const ActivationBuffers &buffers);

// "relu", "clipped_relu", ...; nullptr for values that are not modes.
const char *activation_mode_name(cudnnActivationMode_t mode);

// The coef a problem string without coef= means: 6 for CLIPPED_RELU (ReLU6), 1 for ELU (its alpha), 0 for
// the modes that do not use it. librednn-bench reads its strings with the same default.
double default_activation_coef(cudnnActivationMode_t mode);

ProblemString to_problem_string(const ActivationProblem &problem);
bool parse_activation_problem(const ProblemString &text, ActivationProblem *problem, std::string *error);

}  // namespace librednn
