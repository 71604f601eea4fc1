// What the host RNN passes share: the workspace layout (every direction uses the training forward's
// workspace size, as cuDNN's cudnnGetRNNTempSpaceSizes gives one size for all three calls) and the
// backward passes, which the host RNN solver runs for RnnDirection::backward_*.
#pragma once

#include "core/status.hpp"
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "ops/common/solver.hpp"
#include "ops/rnn/problem.hpp"

#include <algorithm>
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

// The weight space (elements of T) converted to the compute type C, over the threads.
template <class T, class C>
void rnn_load_weights(const RnnNetwork &net, const void *weights, C *to) {
    const T *from = static_cast<const T *>(weights);
    host::parallel_for(rnn_weight_elements(net), 1 << 16, [&](int64_t begin, int64_t end, int) {
        for (int64_t i = begin; i < end; ++i) to[i] = host::HostElement<T>::load(from[i]);
    });
}

// A sequence tensor (x or dy, `width` values a step) from the problem's data layout into a dense
// [T][N][width] buffer of C. Steps beyond a sequence's length become 0 when `zero_beyond`, else stay as
// they are. A step's values are contiguous in every layout, so its offset is found once.
template <class T, class C>
void rnn_load_sequences(const RnnProblem &p, const void *data, int width, C *dense, bool zero_beyond) {
    const T *from = static_cast<const T *>(data);
    for (int t = 0; t < p.max_seq_length; ++t)
        for (int n = 0; n < p.batch_size; ++n) {
            C *row = dense + (static_cast<int64_t>(t) * p.batch_size + n) * width;
            if (t >= p.seq_lengths[static_cast<size_t>(n)]) {
                if (zero_beyond) std::fill(row, row + width, C(0));
                continue;
            }
            const T *step = from + rnn_data_offset(p, width, t, n, 0);
            for (int i = 0; i < width; ++i) row[i] = host::HostElement<T>::load(step[i]);
        }
}

// LSTM cell clipping (RnnProblem::clipping) of a new c, in the compute type: into [lclip, rclip], a NaN
// to lclip unless the problem propagates it.
template <class C>
C rnn_clip_cell(const RnnProblem &p, C c) {
    if (!p.clipping) return c;
    if (c != c) return p.clip_propagate_nan ? c : C(p.lclip);
    return std::min(std::max(c, C(p.lclip)), C(p.rclip));
}

// Whether the gradient stops at a clipped c: it lies on a bound (LibreDNN counts a c that lands on a bound
// unclipped as clipped too; the reserve space keeps only the clipped value).
template <class C>
bool rnn_cell_clipped(const RnnProblem &p, C c) {
    return p.clipping && (c == C(p.lclip) || c == C(p.rclip));
}

Status host_rnn_backward(const ExecutionContext &context, const RnnProblem &problem, const RnnBuffers &buffers);

}  // namespace librednn
