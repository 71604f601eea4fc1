// A dropout problem (cudnnDropoutForward / Backward) as a value, with its buffers and its problem string
// ("op=dropout dir=fwd dtype=half dims=64x512 p=0.5", LibreDNN's: the bench does not run dropout yet).
//
// Forward draws one number per element of x from the descriptor's states (descriptors/dropout.hpp says
// how), keeps the element with probability 1 - p and writes y = x / (1 - p) where it is kept, 0 where it
// is dropped, and the mask (one byte per element, 1 kept) into the reserve space. Backward reads the mask
// back: dx = dy / (1 - p) where kept, 0 where dropped. Elements pair up by their position in row-major
// order of each tensor's own dims: cuDNN asks only for equal element counts.
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <string>

namespace librednn {

struct DropoutProblem {
    Direction direction = Direction::forward;
    TensorGeometry in, out;  // forward x and y, backward dy and dx
    float probability = 0.0f;
    bool in_place = false;  // out is in's memory (with the same strides)

    bool operator==(const DropoutProblem &other) const;
};

struct DropoutBuffers {
    const void *in = nullptr;
    void *out = nullptr;
    // One byte per element: forward writes the mask, backward reads it.
    void *reserve = nullptr;
    // Forward only: the descriptor's states (a DropoutState, in the backend's memory). The solver draws
    // from them and advances their call count.
    void *states = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const DropoutProblem &problem, const DropoutBuffers &buffers);

// The factor kept elements are multiplied by, 1 / (1 - p) rounded once in the compute type: float for
// float, half and bfloat16 data, double for double. Every backend multiplies by it, so the host and the
// GPU give the same bits. Not used at p = 1, where every element is dropped.
inline float dropout_scale_float(float probability) { return 1.0f / (1.0f - probability); }
inline double dropout_scale_double(float probability) { return 1.0 / (1.0 - static_cast<double>(probability)); }

ProblemString to_problem_string(const DropoutProblem &problem);
bool parse_dropout_problem(const ProblemString &text, DropoutProblem *problem, std::string *error);

}  // namespace librednn
