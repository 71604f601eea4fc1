// What the host RNN passes share: the workspace layout (every direction uses the training forward's
// workspace size, as cuDNN's cudnnGetRNNTempSpaceSizes gives one size for all three calls) and the
// backward passes, which the host RNN solver runs for RnnDirection::backward_*.
#pragma once

#include "core/status.hpp"
#include "ops/common/solver.hpp"
#include "ops/rnn/problem.hpp"

#include <cstdint>

namespace librednn {

// Workspace pieces, in elements of the compute type, in this order: the weights (forward, backward
// data: converted; backward weights: the gradients' sums), the layer input [T][N][widest] (backward
// data: the gradient of the layer's input), the layer output [T][N][ySize] (backward data: the gradient
// of the layer's output), W x + b_W for every step, and per sequence the recurrence's state.
struct RnnHostWorkspace {
    int64_t weights, input, output, input_projection, state;
};
RnnHostWorkspace rnn_host_workspace(const RnnProblem &p);

Status host_rnn_backward(const ExecutionContext &context, const RnnProblem &problem, const RnnBuffers &buffers);

}  // namespace librednn
