// The reference RNN forward pass (cudnnRNNForward), naive and in double, over plain arrays: the weights
// come matrix by matrix (as cudnnGetRNNWeightParams hands them out), the data sequence-major and dense.
//
// Per layer and direction, for each sequence n and its time steps t (0 .. length_n - 1 forward,
// length_n - 1 .. 0 for the backward direction, which thus starts at each sequence's own last step),
// with x the layer's input at (t, n) and h, c the state carried from the previous step (hx, cx or 0):
//   RNN_RELU / RNN_TANH: h' = act(W x + b_W + R h + b_R)
//   LSTM: i = s(W_i x + b_Wi + R_i h + b_Ri), f = s(..._f), g = tanh(..._g), o = s(..._o)
//         c' = f c + i g, h' = o tanh(c'), and with the projection h' = P h' (P: projSize x hiddenSize)
//   GRU:  r = s(W_r x + b_Wr + R_r h + b_Rr), z = s(..._z),
//         h~ = tanh(W_h x + b_Wh + r (R_h h + b_Rh)), h' = (1 - z) h~ + z h
// (s the logistic sigmoid; an absent bias is zero; CUDNN_SKIP_INPUT makes layer 0's W x equal x).
// Layer l + 1 reads layer l's outputs, the two directions concatenated [forward | backward]. y holds the
// last layer's outputs; hy, cy each pseudo-layer's state after its sequence's last step (hx, cx for an
// empty sequence). y beyond a sequence's length holds `fill`.
// LSTM cell clipping: after each update c' = min(max(c', lclip), rclip), and a NaN c' stays NaN with
// clip_propagate_nan, else becomes lclip. Dropout between layers: layer l + 1 reads layer l's output
// times dropout[l][t][n][i] (the caller's factors: 0 or 1 / (1 - p)); the last layer's output is not
// dropped.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <vector>

namespace librednn::reference {

struct RnnConfig {
    cudnnRNNMode_t cell = CUDNN_LSTM;
    bool bidirectional = false;
    int layers = 1;
    int input_size = 1;
    int hidden_size = 1;
    int proj_size = 1;  // hidden_size: no projection
    bool skip_input = false;
    cudnnRNNBiasMode_t bias_mode = CUDNN_RNN_DOUBLE_BIAS;
    bool clip = false;  // LSTM cell clipping
    double lclip = 0.0, rclip = 0.0;
    bool clip_propagate_nan = false;
};

// matrices[pseudo_layer][linLayerID] row-major (rows x cols), biases[pseudo_layer][linLayerID]; an
// empty vector where the configuration has none. linLayerIDs as cuDNN numbers them: LSTM 0-3 input
// i, f, g, o, 4-7 recurrent i, f, g, o, 8 the projection; GRU 0-2 input r, z, h, 3-5 recurrent; RNN 0
// input, 1 recurrent.
struct RnnWeights {
    std::vector<std::vector<std::vector<double>>> matrices, biases;
};

// x: [maxSeqLength][batch][input_size]; hx, cx: [pseudo-layers][batch][proj_size or hidden_size], or
// empty for zeros. dropout: [layers - 1][maxSeqLength][batch][proj_size * directions], or empty for
// none. Outputs: y [maxSeqLength][batch][proj_size * directions], hy, cy like hx, cx.
// CUDNN_STATUS_BAD_PARAM (reason recorded) when a size disagrees; then nothing is written.
Status rnn_forward(const RnnConfig &config, const RnnWeights &weights, int max_seq_length,
                   const std::vector<int> &seq_lengths, const std::vector<double> &x, const std::vector<double> &hx,
                   const std::vector<double> &cx, double fill, std::vector<double> *y, std::vector<double> *hy,
                   std::vector<double> *cy, const std::vector<double> &dropout = {});

// The gradients of L = sum dy . y + sum dhy . hy + sum dcy . cy (the forward above, the same arguments) with
// respect to x, hx, cx and every weight and bias (rnn_backward.hpp): dy [maxSeqLength][batch][proj_size *
// directions] (read at each sequence's steps only), dhy, dcy like hx, cx or empty for zeros. Outputs: dx like x
// (zeros beyond each sequence), dhx and dcx for every pseudo-layer (dcx zeros but for LSTM), dw shaped as the
// weights. A clipped LSTM cell state (at lclip or rclip) passes no gradient.
Status rnn_backward(const RnnConfig &config, const RnnWeights &weights, int max_seq_length,
                    const std::vector<int> &seq_lengths, const std::vector<double> &x, const std::vector<double> &hx,
                    const std::vector<double> &cx, const std::vector<double> &dy, const std::vector<double> &dhy,
                    const std::vector<double> &dcy, std::vector<double> *dx, std::vector<double> *dhx,
                    std::vector<double> *dcx, RnnWeights *dw, const std::vector<double> &dropout = {});

}  // namespace librednn::reference
