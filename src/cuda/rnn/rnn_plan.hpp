// What the CUDA RNN passes share (cuda/rnn/rnn.hpp): where each piece of the workspace lies, the per
// pseudo-layer places of the weight space and the reserve space, and the sequence tables (each
// sequence's length and each (t, n)'s row in the caller's data tensors) copied to the device.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>
#include <initializer_list>

namespace librednn::cuda {

// The largest magnitudes backward weights records (as float bits) of the operands it turns into half factors: the
// gate gradients for W's product and for R's, the layer input, the previous h (rnn_backward_weights.cu).
constexpr int kRnnOperandMaxima = 4;

// The workspace, in elements of the compute type C unless named bytes: the weights converted to C
// (backward weights: the gradients' sums), two [T][N][widest] sequence buffers (layer input and output,
// or their gradients), [T][N][gates * hidden] for W x + b_W (backward weights: every step's previous h, or
// the gate gradients turned K-major; all three a little longer where T * N is not a multiple of 4),
// per-sequence state, the parts of a recurrence step's products when they split k (batches up to 64), the
// tables, backward weights' maxima, and last the split sums of backward weights' products on the implicit GEMM
// (rnn_products.hpp).
struct RnnCudaWorkspace {
    int64_t weights = 0, sequences = 0, gates = 0, state = 0, split = 0;  // elements of one piece
    // The GRU's W gate gradients rounded to TF32 for backward data's W^T dG (rnn_tf32_input_gradient), where the
    // passes prepare TF32 operands; else 0.
    int64_t rounded = 0;
    int64_t state_per_sequence = 0;
    size_t table_offset = 0;   // bytes from the start: int32 lengths[N], then int64 rows[T][N]
    size_t maxima_offset = 0;  // kRnnOperandMaxima uint32: backward weights' largest magnitudes of its half factors
    size_t product_offset = 0, product_bytes = 0;
    size_t bytes = 0;
};
RnnCudaWorkspace rnn_cuda_workspace(const RnnProblem &p);

// The row length of an operand that backward weights turns K-major (one row a column, `steps` = T * N of k): the
// steps rounded up to whole 16-byte rows. The sequence and gates pieces hold their widths' rows of it.
inline int64_t rnn_turned_row(int64_t steps) { return (steps + 3) / 4 * 4; }

// The workspace's pieces as pointers (C = float or double).
template <class C>
struct RnnWorkspacePointers {
    C *weights, *sequence_a, *sequence_b, *gates, *state, *split;
    C *rounded;  // null where the plan has no such piece
    int64_t state_per_sequence, state_elements, split_elements;
    int *lengths;
    int64_t *rows;     // (t, n) -> row of the data tensors; -1 for a step beyond the sequence when packed
    uint32_t *maxima;  // [kRnnOperandMaxima]
    void *products;    // the implicit GEMM's workspace for backward weights' products
    size_t product_bytes;
};
template <class C>
RnnWorkspacePointers<C> rnn_workspace_pointers(const RnnProblem &p, void *workspace) {
    const RnnCudaWorkspace w = rnn_cuda_workspace(p);
    RnnWorkspacePointers<C> at;
    C *base = static_cast<C *>(workspace);
    at.weights = base;
    at.sequence_a = at.weights + w.weights;
    at.sequence_b = at.sequence_a + w.sequences;
    at.gates = at.sequence_b + w.sequences;
    at.state = at.gates + w.gates;
    at.split = at.state + w.state;
    at.rounded = w.rounded > 0 ? at.split + w.split : nullptr;
    at.state_per_sequence = w.state_per_sequence, at.state_elements = w.state, at.split_elements = w.split;
    at.lengths = reinterpret_cast<int *>(static_cast<char *>(workspace) + w.table_offset);
    at.rows = reinterpret_cast<int64_t *>(static_cast<char *>(workspace) + w.table_offset +
                                          ((sizeof(int) * static_cast<size_t>(p.batch_size) + 255) & ~size_t{255}));
    at.maxima = reinterpret_cast<uint32_t *>(static_cast<char *>(workspace) + w.maxima_offset);
    at.products = w.product_bytes > 0 ? static_cast<char *>(workspace) + w.product_offset : nullptr;
    at.product_bytes = w.product_bytes;
    return at;
}

// Copies the lengths and the row table to the device (from pageable memory: the copy is staged before
// this returns).
Status rnn_upload_tables(cudaStream_t stream, const RnnProblem &p, int *lengths, int64_t *rows);

// Whether some sequence is shorter than maxSeqLength (then the passes clear what those steps leave
// unwritten, so that the products over all steps read zeros there).
bool rnn_has_short_sequences(const RnnProblem &p);

// One pseudo-layer's places: its matrices and biases in the weight space (elements; -1 when absent) and
// its blocks in the reserve space.
struct RnnLayerPlaces {
    int64_t input_matrices = -1;                       // the gates' W, gates * hidden rows of `width`
    int64_t recurrent_matrices = -1;                   // the gates' R, gates * hidden rows of projSize
    int64_t projection = -1;                           // P, projSize rows of hidden
    int64_t input_biases = -1, recurrent_biases = -1;  // gates * hidden each
    int width = 0;                                     // the layer input's width
};
RnnLayerPlaces rnn_layer_places(const RnnNetwork &net, int pseudo_layer);

// One way a pass can run a pseudo-layer's recurrence steps, and why it declined (nullptr: it runs them).
struct RnnStepsWay {
    const char *name;
    const char *declined;
};

// With dispatch logging on (CUDNN_LOGINFO_DBG, or LIBREDNN_LOG_DISPATCH=1), one record of how `what` (a pass's
// steps of one pseudo-layer) runs: the ways in order of preference, each declined with its reason up to the one
// that runs. The solver's dispatch record says that the CUDA RNN runs the call; this says how, one level down.
void rnn_log_steps(const RnnProblem &p, const char *what, int pseudo_layer, std::initializer_list<RnnStepsWay> ways);

// The three passes (rnn_forward.cu, rnn_backward_data.cu, rnn_backward_weights.cu).
Status rnn_forward_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace);
Status rnn_backward_data_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace);
Status rnn_backward_weights_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace);

}  // namespace librednn::cuda
