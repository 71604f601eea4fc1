// An RNN problem (cudnnRNNForward, the v8 API) as a value, with its buffers and its problem string
// ("op=rnn dir=fwd cell=lstm algo=standard dirs=2 layers=2 input=32 hidden=64 proj=64 ...", which
// librednn-bench runs too), the weight-space layout (docs/RNN.md) and the reserve-space layout.
//
// The cells, for each layer, direction and time step (x the layer's input, h and c the state):
//   RNN_RELU / RNN_TANH: h' = act(W x + b_W + R h + b_R)
//   LSTM (gates i, f, g, o): i, f, o = sigmoid(W_* x + b_W* + R_* h + b_R*), g = tanh(...),
//        c' = f * c + i * g, h' = o * tanh(c') (then h' = P h' with the recurrent projection)
//   GRU (gates r, z, h): r, z = sigmoid(W_* x + b_W* + R_* h + b_R*),
//        h~ = tanh(W_h x + b_Wh + r * (R_h h + b_Rh)), h' = (1 - z) * h~ + z * h
// A bias the bias mode leaves out counts as zero; CUDNN_SKIP_INPUT makes layer 0's W the identity.
#pragma once

#include "core/status.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace librednn {

// What the RNN descriptor says about the network: enough for the weight-space layout.
struct RnnNetwork {
    cudnnRNNMode_t cell = CUDNN_LSTM;
    bool bidirectional = false;
    int layers = 1;
    int input_size = 1;
    int hidden_size = 1;
    int proj_size = 1;  // == hidden_size when the recurrent projection is off
    bool skip_input = false;
    cudnnRNNBiasMode_t bias_mode = CUDNN_RNN_DOUBLE_BIAS;
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    cudnnDataType_t math_prec = CUDNN_DATA_FLOAT;
    // What the descriptor asks of the implementation; neither changes the host's arithmetic, both are
    // in the problem so that a logged call re-runs as it was made (a GPU library may choose by them).
    cudnnRNNAlgo_t algo = CUDNN_RNN_ALGO_STANDARD;
    cudnnMathType_t math_type = CUDNN_DEFAULT_MATH;

    int directions() const { return bidirectional ? 2 : 1; }
    int pseudo_layers() const { return layers * directions(); }
    bool projection() const { return proj_size < hidden_size; }
    // Gates per cell: 1 (RNN_RELU, RNN_TANH), 3 (GRU), 4 (LSTM).
    int gates() const;
    // linLayerIDs of a pseudo-layer: 2 * gates, plus the projection (8) for an LSTM with one.
    int lin_layer_ids() const;
    // The input width of pseudo-layer `pseudo_layer`'s layer: inputSize for layer 0, else
    // projSize * directions.
    int layer_input_size(int pseudo_layer) const;
};

// Where one matrix or bias vector lies in the weight space, in elements from its start. `present` is
// false for what the configuration does not have (a bias the bias mode leaves out, layer 0's input
// matrices with CUDNN_SKIP_INPUT, linLayerID 8 without a projection); then the rest is 0.
struct RnnWeightEntry {
    bool present = false;
    int64_t offset = 0;
    int rows = 0, cols = 0;  // a bias is rows x 1
    int64_t elements() const { return static_cast<int64_t>(rows) * cols; }
};

// The layout (docs/RNN.md), NVIDIA's as measured on cuDNN 9.19: first every matrix, pseudo-layer by
// pseudo-layer (layer 0 dir 0, layer 0 dir 1, layer 1 dir 0, ...) and in linLayerID order within one;
// then every bias vector in the same order. Each matrix row-major [rows][cols]; nothing padded.
RnnWeightEntry rnn_matrix_entry(const RnnNetwork &net, int pseudo_layer, int lin_layer_id);
RnnWeightEntry rnn_bias_entry(const RnnNetwork &net, int pseudo_layer, int lin_layer_id);
// Both saturate at INT64_MAX (validate_rnn_network refuses such a network).
int64_t rnn_weight_elements(const RnnNetwork &net);
size_t rnn_weight_space_bytes(const RnnNetwork &net);

// forward: cudnnRNNForward; backward_data: cudnnRNNBackwardData_v8 (dx, dhx, dcx from dy, dhy, dcy and
// the reserve space of a training forward; it leaves in the reserve space what backward_weights reads);
// backward_weights: cudnnRNNBackwardWeights_v8 (after backward_data, with the same reserve space).
enum class RnnDirection { forward, backward_data, backward_weights };

// The smallest batch whose recurrence steps' products (R h + b_R, P h, and backward R^T dG, P^T dh) the CUDA
// backend may multiply on TF32 tensor cores, where the math type allows TF32 (docs/NUMERICS.md, "RNNs";
// cuda/rnn/rnn_products.hpp). Smaller batches keep them on CUDA cores in their own type, but for backward data's
// R^T dG without a projection, which is TF32 from batch 17 (cuda/rnn/rnn_split_product.hpp).
constexpr int kRnnTensorCoreStepBatch = 32;

struct RnnProblem {
    RnnDirection direction = RnnDirection::forward;
    RnnNetwork net;
    bool training = false;  // CUDNN_FWD_MODE_TRAINING: fills the reserve space
    float dropout = 0.0f;   // between layers, in training only (dropout_between_layers)
    // LSTM cell clipping (cudnnRNNSetClip_v8, CUDNN_RNN_CLIP_MINMAX): after each update c is clipped to
    // [lclip, rclip]; a NaN stays NaN with clip_propagate_nan, else it becomes lclip.
    bool clipping = false;
    double lclip = 0.0, rclip = 0.0;
    bool clip_propagate_nan = false;
    cudnnRNNDataLayout_t layout = CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED;
    int max_seq_length = 1;
    int batch_size = 1;
    std::vector<int> seq_lengths;  // batch_size values in [0, max_seq_length]
    double padding_fill = 0.0;     // what y holds beyond each sequence's length (unpacked layouts)
    bool has_hx = false, has_cx = false, has_hy = false, has_cy = false;

    int y_size() const { return net.proj_size * net.directions(); }
    // Whether a training forward drops elements of each layer's output before the next layer reads it
    // (and the backward passes apply the same mask): training, a probability above 0, two or more layers.
    bool dropout_between_layers() const { return training && dropout > 0.0f && net.layers > 1; }
    // An inference forward: no reserve space, no backward pass reads what it leaves.
    bool inference() const { return !training && direction == RnnDirection::forward; }
    bool operator==(const RnnProblem &other) const;
};

// The caller's buffers, on the handle's backend. hx, cx, hy, cy may be NULL (zero initial state, final
// state not written); the weight space is laid out as above.
struct RnnBuffers {
    const void *x = nullptr;
    void *y = nullptr;
    const void *hx = nullptr;
    void *hy = nullptr;
    const void *cx = nullptr;
    void *cy = nullptr;
    const void *weights = nullptr;
    void *reserve = nullptr;  // training only
    // The dropout descriptor's states (a DropoutState in the backend's memory): a training forward with
    // dropout between layers draws its mask from them and counts one call in them.
    void *dropout_states = nullptr;
    // The backward passes'. dhy, dcy, dhx, dcx may be NULL (zero gradient in, gradient not written).
    const void *dy = nullptr;
    void *dx = nullptr;
    const void *dhy = nullptr;
    void *dhx = nullptr;
    const void *dcy = nullptr;
    void *dcx = nullptr;
    void *dweights = nullptr;
    bool add_grad = true;  // backward_weights: CUDNN_WGRAD_MODE_ADD adds into dweights, SET overwrites
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const RnnProblem &problem, const RnnBuffers &buffers);

// Where element (t, n, i) of an RNN data tensor with vectors of `vector_size` lies, in elements; -1 for
// a padded-out position of the packed layout (t >= the sequence's length).
int64_t rnn_data_offset(const RnnProblem &p, int vector_size, int t, int n, int i);
// Elements an RNN data tensor of this problem spans.
int64_t rnn_data_elements(const RnnProblem &p, int vector_size);

// The reserve space a training forward fills for the backward passes (every backend alike), in
// elements of the compute type (rnn_compute_type): per pseudo-layer, [T][N] blocks of the gate
// activations (gates * hidden), the cell state c (LSTM: hidden) and the unprojected h (projection:
// hidden); per layer, its output [T][N][projSize * directions]; then, per pseudo-layer, [T][N] blocks of
// the gradients backward_data leaves for backward_weights (rnn_reserve_gradient_start): the gradient of
// each gate's W x + b_W (gates * hidden), of each gate's R h + b_R (gates * hidden; they differ only in
// the GRU's h gate, by the factor r) and, with the projection, of the projected h (projSize); last, with
// dropout between layers, per layer but the last, [T][N][projSize * directions] dropout factors (the
// layer output's element is multiplied by it before the next layer reads it: 1 / (1 - p) in the compute
// type where kept, 0 where dropped; rnn_dropout_element says which). Positions beyond a sequence's
// length are not written, except the dropout factors, which are written for every (t, n).
int64_t rnn_reserve_elements(const RnnProblem &p);
size_t rnn_reserve_bytes(const RnnProblem &p);
// Elements of one (t, n) block of the forward's part, and of the gradients' part, per pseudo-layer.
int64_t rnn_reserve_forward_block(const RnnNetwork &net);
int64_t rnn_reserve_gradient_block(const RnnNetwork &net);
// Where the gradients' part begins, in elements.
int64_t rnn_reserve_gradient_start(const RnnProblem &p);
// Where the dropout factors begin, in elements (== rnn_reserve_elements without dropout between layers).
int64_t rnn_reserve_dropout_start(const RnnProblem &p);
// float for half and float data, double for double data.
cudnnDataType_t rnn_compute_type(const RnnNetwork &net);

ProblemString to_problem_string(const RnnProblem &problem);
bool parse_rnn_problem(const ProblemString &text, RnnProblem *problem, std::string *error);

}  // namespace librednn
