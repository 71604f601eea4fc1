// The doctor's own naive references for its self-test, NCHW float data, double accumulation: small
// enough to read in a minute each, and independent of the library under test. (LibreDNN's fuller
// references in src/reference are checked against these by tests/doctor/selftest_reference_test.)
#pragma once

#include <cstdint>
#include <vector>

namespace librednn::doctor::reference {

// Dims of an NCHW tensor or a KCRS filter.
struct Shape4 {
    int n = 1, c = 1, h = 1, w = 1;
    int64_t count() const { return int64_t{n} * c * h * w; }
    int64_t at(int i, int j, int y, int x) const { return ((int64_t{i} * c + j) * h + y) * w + x; }
};

struct Conv2d {
    int pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1, dilation_h = 1, dilation_w = 1;
    Shape4 output(const Shape4 &x, const Shape4 &w) const;  // [N, K, P, Q]
};

// y[n,k,p,q] = sum_{c,r,s} x[n, c, p*stride - pad + r*dilation, q*stride - pad + s*dilation] * w[k,c,r,s]
// (cross-correlation; padding reads zero).
std::vector<double> convolution_forward(const Conv2d &conv, const Shape4 &xs, const std::vector<float> &x,
                                        const Shape4 &ws, const std::vector<float> &w);
// dx: the adjoint of the forward in x, for output gradient dy.
std::vector<double> convolution_backward_data(const Conv2d &conv, const Shape4 &xs, const Shape4 &ws,
                                              const std::vector<float> &w, const std::vector<float> &dy);
// dw: the gradient of sum(y * dy) in w.
std::vector<double> convolution_backward_filter(const Conv2d &conv, const Shape4 &xs, const std::vector<float> &x,
                                                const Shape4 &ws, const std::vector<float> &dy);

// y = scale[c] * (x - mean[c]) / sqrt(variance[c] + epsilon) + bias[c]  (spatial mode).
std::vector<double> batch_norm_inference(const Shape4 &xs, const std::vector<float> &x, const std::vector<float> &scale,
                                         const std::vector<float> &bias, const std::vector<float> &mean,
                                         const std::vector<float> &variance, double epsilon);

// The largest x in each window; positions in the padding never win.
struct Pool2d {
    int window_h = 1, window_w = 1, pad_h = 0, pad_w = 0, stride_h = 1, stride_w = 1;
    Shape4 output(const Shape4 &x) const;
};
std::vector<double> max_pooling(const Pool2d &pool, const Shape4 &xs, const std::vector<float> &x);

// Softmax over C at each (n, h, w) (cuDNN's CHANNEL mode) or over C*H*W per n (INSTANCE mode);
// log_softmax gives log of it, computed as x - max - log(sum exp(x - max)).
std::vector<double> softmax(const Shape4 &xs, const std::vector<float> &x, bool per_channel, bool log_softmax);

// max(x, 0), and its gradient dy * (x > 0).
std::vector<double> relu(const std::vector<float> &x);
std::vector<double> relu_backward(const std::vector<float> &x, const std::vector<float> &dy);

// One layer, one direction of a recurrent network over sequences of `lengths[n]` steps: x is [steps][batch]
// [input] (sequence-major), hx and cx [batch][hidden]; matrices are cuDNN's linLayerIDs in order, first the
// gates' input matrices ([hidden][input]), then their recurrent ones ([hidden][hidden]), biases the same ids'
// bias vectors. y is [steps][batch][hidden], zero past a sequence's end; hy and cy each sequence's last h and c.
struct RnnLayer {
    int input = 0, hidden = 0, steps = 0, batch = 0;
    std::vector<int> lengths;
    std::vector<std::vector<float>> matrices, biases;  // 8 each for an LSTM, 6 for a GRU
};
struct RnnOutputs {
    std::vector<double> y, hy, cy;
};
// The LSTM in cuDNN's gate order (input, forget, cell, output): i = sigmoid(W_i x + b_Wi + R_i h + b_Ri), f and
// o alike, g = tanh(W_g x + b_Wg + R_g h + b_Rg), c' = f c + i g, h' = o tanh(c').
RnnOutputs lstm_forward(const RnnLayer &net, const std::vector<float> &x, const std::vector<float> &hx,
                        const std::vector<float> &cx);
// The GRU as cuDNN computes it (gates reset, update, new; the reset gate applied after the recurrent product):
// r = sigmoid(W_r x + b_Wr + R_r h + b_Rr), z likewise, h~ = tanh(W_h x + b_Wh + r (R_h h + b_Rh)),
// h' = (1 - z) h~ + z h. cy stays empty.
RnnOutputs gru_forward(const RnnLayer &net, const std::vector<float> &x, const std::vector<float> &hx);
// Back-propagation through the same LSTM from dy ([steps][batch][hidden], read at each sequence's steps only),
// dhy and dcy: dx (zero past a sequence's end), dhx, dcx, and the gradients of the 8 matrices and 8 biases in
// the order of the layer's (each summed over every step of every sequence; b_W and b_R get the same sums).
struct LstmGradients {
    std::vector<double> dx, dhx, dcx;
    std::vector<std::vector<double>> matrices, biases;
};
LstmGradients lstm_backward(const RnnLayer &net, const std::vector<float> &x, const std::vector<float> &hx,
                            const std::vector<float> &cx, const std::vector<float> &dy, const std::vector<float> &dhy,
                            const std::vector<float> &dcy);

// ||out - ref|| / ||ref|| (with ||ref|| = 0 taken as 1); infinity when out holds a NaN or infinity
// that ref does not.
double relative_error(const std::vector<float> &out, const std::vector<double> &ref);

// Tolerances of the self-test (relative L2 error), fp32 data against double references. fp32
// accumulation over n terms errs by about sqrt(n) * 2^-24 relative; the bounds leave room for
// reductions of a few hundred terms and for algorithms (FFT, Winograd) that round more, without
// letting a wrong index or a missed term (errors of order 1e-2 and more) through.
constexpr double kConvolutionTolerance = 1e-4;
constexpr double kElementwiseTolerance = 1e-5;  // batch norm, softmax, ReLU, small LSTM and GRU: a handful of roundings
constexpr double kPoolingTolerance = 0;         // max pooling selects, it does not round
constexpr double kTrainingTolerance = 1e-4;

}  // namespace librednn::doctor::reference
