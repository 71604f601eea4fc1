// A pooling problem (cudnnPoolingForward / cudnnPoolingBackward) as a value, with its buffers and its
// problem string ("op=pool dir=fwd mode=max nan=not_propagate dtype=half dims=... window=3x3 pad=1x1
// stride=2x2 alpha=1 beta=0", librednn-bench's grammar).
//
// x, dx [N, C, spatial...]; y, dy [N, C, output spatial...], output = 1 + (input + 2 pad - window) / stride.
// The window of output o spans input positions o * stride - pad ... o * stride - pad + window - 1.
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

constexpr int kMaxPoolingSpatialDims = kMaxDims - 2;

struct PoolingProblem {
    Direction direction = Direction::forward;
    cudnnPoolingMode_t mode = CUDNN_POOLING_MAX;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    int spatial_dims = 2;
    int64_t window[kMaxPoolingSpatialDims] = {};
    int64_t pad[kMaxPoolingSpatialDims] = {};
    int64_t stride[kMaxPoolingSpatialDims] = {};
    // Forward: y = alpha * pool(x) + beta * y. Backward: dx = alpha * (dy routed back through the
    // pooling of x) + beta * dx; the max modes read x (y is passed, as cuDNN's call takes it).
    TensorGeometry x, y, dy, dx;
    double alpha = 1.0, beta = 0.0;

    const TensorGeometry &result() const { return direction == Direction::forward ? y : dx; }
    bool is_max() const { return mode == CUDNN_POOLING_MAX || mode == CUDNN_POOLING_MAX_DETERMINISTIC; }
    bool operator==(const PoolingProblem &other) const;
};

struct PoolingBuffers {
    const void *x = nullptr;
    const void *y = nullptr;
    const void *dy = nullptr;
    void *result = nullptr;  // y forward, dx backward; read too when beta != 0
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const PoolingProblem &problem, const PoolingBuffers &buffers);

// "max", "max_det", "avg_incl", "avg_excl"; nullptr for other values.
const char *pooling_mode_name(cudnnPoolingMode_t mode);

// The output dims [N, C, spatial...] of input dims `x`; a spatial dim is 0 or less where the window
// overhangs the padded input.
void pooling_output_dims(const PoolingProblem &problem, const int64_t *x, int64_t *y);

ProblemString to_problem_string(const PoolingProblem &problem);
bool parse_pooling_problem(const ProblemString &text, PoolingProblem *problem, std::string *error);

}  // namespace librednn
