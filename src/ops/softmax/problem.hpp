// A softmax problem (cudnnSoftmaxForward / cudnnSoftmaxBackward) as a value, with its buffers and
// its problem string ("op=softmax dir=fwd algo=accurate mode=channel dtype=float dims=...").
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

struct SoftmaxProblem {
    Direction direction = Direction::forward;
    cudnnSoftmaxAlgorithm_t algorithm = CUDNN_SOFTMAX_ACCURATE;  // FAST, ACCURATE (max subtracted) or LOG
    // INSTANCE: one softmax per image over all dims but N. CHANNEL: one per (image, spatial position)
    // over C.
    cudnnSoftmaxMode_t mode = CUDNN_SOFTMAX_MODE_INSTANCE;
    // Forward: y = alpha * softmax(x) + beta * y. Backward (from y and dy): dx = alpha * grad + beta * dx.
    // Every tensor has the same dims and data type; x is forward only, dy and dx backward only.
    TensorGeometry x, y, dy, dx;
    double alpha = 1.0, beta = 0.0;

    const TensorGeometry &result() const { return direction == Direction::forward ? y : dx; }
    bool operator==(const SoftmaxProblem &other) const;
};

// `result` is y forward and dx backward (read too when beta != 0); `y` is a backward input.
struct SoftmaxBuffers {
    const void *x = nullptr;
    const void *y = nullptr;
    const void *dy = nullptr;
    void *result = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const SoftmaxProblem &problem, const SoftmaxBuffers &buffers);

// "fast", "accurate", "log" and "instance", "channel"; nullptr for other values.
const char *softmax_algorithm_name(cudnnSoftmaxAlgorithm_t algorithm);
const char *softmax_mode_name(cudnnSoftmaxMode_t mode);

ProblemString to_problem_string(const SoftmaxProblem &problem);
bool parse_softmax_problem(const ProblemString &text, SoftmaxProblem *problem, std::string *error);

}  // namespace librednn
