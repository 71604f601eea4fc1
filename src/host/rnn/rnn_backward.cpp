// The host RNN backward passes (docs/RNN.md). Backward data runs back-propagation through time, layer by
// layer from the last, each direction of a layer in turn and the sequences over the threads: every
// step's gate gradients come from the gate activations, cell states and layer outputs the training
// forward left in the reserve space; it writes them to the reserve space's gradients' part, where
// backward weights reads them (nothing passes between the two calls but the reserve space). Backward
// weights then sums, for each weight row over the threads, the gate gradients times the layer input,
// the previous step's h or the unprojected h. With dropout between layers, the gradient reaching a
// layer's output from the layer above and the input backward weights multiplies by are the forward's
// (the dropout factors of the reserve space); with LSTM cell clipping, the gradient stops at a clipped c.
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/rnn/internal.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace librednn {

namespace {

template <class T>
class Backward {
    using E = host::HostElement<T>;
    using C = typename E::Compute;

public:
    Backward(const RnnProblem &p, const RnnBuffers &b, void *workspace) : p_(p), b_(b), net_(p.net) {
        const RnnHostWorkspace sizes = rnn_host_workspace(p);
        C *at = static_cast<C *>(workspace);
        weights_ = at, at += sizes.weights;
        input_ = at, at += sizes.input;
        output_ = at, at += sizes.output + sizes.input_projection;
        state_ = at;
        reserve_ = static_cast<C *>(b.reserve);
        steps_ = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
        forward_block_ = rnn_reserve_forward_block(net_);
        gradient_block_ = rnn_reserve_gradient_block(net_);
        gradient_start_ = rnn_reserve_gradient_start(p);
    }

    void data() {
        rnn_load_weights<T>(net_, b_.weights, weights_);
        rnn_load_sequences<T>(p_, b_.dy, p_.y_size(), output_, true);
        const int Y = p_.y_size();
        for (int layer = net_.layers - 1; layer >= 0; --layer) {
            const int width = layer == 0 ? net_.input_size : Y;
            std::fill(input_, input_ + steps_ * width, C(0));
            for (int dir = 0; dir < net_.directions(); ++dir) {
                const int pl = layer * net_.directions() + dir;
                host::parallel_for(p_.batch_size, 1, [&](int64_t begin, int64_t end, int) {
                    for (int64_t n = begin; n < end; ++n) recur_back(pl, layer, dir, static_cast<int>(n), width);
                });
            }
            if (layer > 0) {
                if (p_.dropout_between_layers()) {
                    const C *factors = dropout_factors(layer - 1);
                    for (int64_t e = 0; e < steps_ * Y; ++e) output_[e] = input_[e] * factors[e];
                } else {
                    std::memcpy(output_, input_, static_cast<size_t>(steps_ * Y) * sizeof(C));
                }
            }
        }
        store_dx();
    }

    void weights() {
        const int64_t total = rnn_weight_elements(net_);
        std::fill(weights_, weights_ + total, C(0));
        rnn_load_sequences<T>(p_, b_.x, net_.input_size, input_, false);
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size;
        for (int pl = 0; pl < net_.pseudo_layers(); ++pl) {
            const int layer = pl / net_.directions(), dir = pl % net_.directions();
            const int width = net_.layer_input_size(pl);
            const C *in = layer == 0 ? input_ : reserve_ + output_start(layer - 1);
            if (layer > 0 && p_.dropout_between_layers()) {
                // The layer's input as the forward gave it: the output below times its dropout factors.
                const C *factors = dropout_factors(layer - 1);
                for (int64_t e = 0; e < steps_ * width; ++e) output_[e] = in[e] * factors[e];
                in = output_;
            }
            // Rows: g*H input-side rows, g*H recurrent-side rows, P projection rows.
            const int rows = 2 * g * H + (net_.projection() ? P : 0);
            host::parallel_for(rows, 1, [&](int64_t begin, int64_t end, int) {
                for (int64_t row = begin; row < end; ++row)
                    weight_row(pl, layer, dir, static_cast<int>(row), width, in);
            });
        }
        T *dw = static_cast<T *>(b_.dweights);
        const bool add = b_.add_grad;
        host::parallel_for(total, 1 << 16, [&](int64_t begin, int64_t end, int) {
            for (int64_t i = begin; i < end; ++i) dw[i] = E::store(add ? E::load(dw[i]) + weights_[i] : weights_[i]);
        });
    }

private:
    int length(int n) const { return p_.seq_lengths[static_cast<size_t>(n)]; }
    int64_t output_start(int layer) const {
        return steps_ * forward_block_ * net_.pseudo_layers() + steps_ * p_.y_size() * layer;
    }
    const C *dropout_factors(int layer) const {
        return reserve_ + rnn_reserve_dropout_start(p_) + steps_ * p_.y_size() * layer;
    }
    const C *saved(int pl, int64_t row) const {
        return reserve_ + (static_cast<int64_t>(pl) * steps_ + row) * forward_block_;
    }
    C *gradients(int pl, int64_t row) const {
        return reserve_ + gradient_start_ + (static_cast<int64_t>(pl) * steps_ + row) * gradient_block_;
    }
    // h before step s of sequence n in pseudo-layer pl (s = 0: hx or zeros, written into `scratch`).
    const C *previous_h(int pl, int layer, int dir, int n, int s, C *scratch) const {
        const int P = net_.proj_size, N = p_.batch_size;
        if (s == 0) {
            const T *hx = static_cast<const T *>(b_.hx);
            for (int i = 0; i < P; ++i)
                scratch[i] = hx ? E::load(hx[(static_cast<int64_t>(pl) * N + n) * P + i]) : C(0);
            return scratch;
        }
        const int len = length(n);
        const int t = dir == 0 ? s - 1 : len - s;
        return reserve_ + output_start(layer) + (static_cast<int64_t>(t) * N + n) * p_.y_size() + dir * P;
    }

    // dx from the first layer's input gradients; 0 beyond a sequence's length (unpacked layouts).
    void store_dx() {
        T *dx = static_cast<T *>(b_.dx);
        const int width = net_.input_size;
        for (int t = 0; t < p_.max_seq_length; ++t)
            for (int n = 0; n < p_.batch_size; ++n) {
                const bool valid = t < length(n);
                if (!valid && p_.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED) continue;
                const C *row = input_ + (static_cast<int64_t>(t) * p_.batch_size + n) * width;
                T *step = dx + rnn_data_offset(p_, width, t, n, 0);
                for (int i = 0; i < width; ++i) step[i] = E::store(valid ? row[i] : C(0));
            }
    }

    // Back-propagation through time of sequence n in pseudo-layer pl: the gradient of the layer input
    // adds into input_, the gate gradients go to the reserve space.
    void recur_back(int pl, int layer, int dir, int n, int width) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size, N = p_.batch_size, Y = p_.y_size();
        C *dh = state_ + static_cast<int64_t>(n) * (2 * P + 2 * H);
        C *dc = dh + P, *dfull = dc + H, *dprev = dfull + H;
        const T *dhy = static_cast<const T *>(b_.dhy), *dcy = static_cast<const T *>(b_.dcy);
        const T *cx = static_cast<const T *>(b_.cx);
        const int64_t state_row = static_cast<int64_t>(pl) * N + n;
        for (int i = 0; i < P; ++i) dh[i] = dhy ? E::load(dhy[state_row * P + i]) : C(0);
        for (int i = 0; i < H; ++i) dc[i] = dcy ? E::load(dcy[state_row * H + i]) : C(0);
        RnnWeightEntry w[4], r[4];
        for (int k = 0; k < g; ++k) w[k] = rnn_matrix_entry(net_, pl, k), r[k] = rnn_matrix_entry(net_, pl, g + k);
        const RnnWeightEntry rh_bias = g == 3 ? rnn_bias_entry(net_, pl, g + 2) : RnnWeightEntry{};
        const RnnWeightEntry projection = rnn_matrix_entry(net_, pl, 2 * g);
        const int len = length(n);
        for (int s = len - 1; s >= 0; --s) {
            const int t = dir == 0 ? s : len - 1 - s;
            const int64_t row = static_cast<int64_t>(t) * N + n;
            const C *dout = output_ + row * Y + dir * P;
            for (int i = 0; i < P; ++i) dh[i] += dout[i];
            C *grad = gradients(pl, row);
            C *gw = grad, *gr = grad + g * H;
            if (projection.present) {
                std::copy(dh, dh + P, grad + 2 * g * H);
                for (int j = 0; j < H; ++j) dfull[j] = 0;
                for (int i = 0; i < P; ++i) {
                    const C *pw = weights_ + projection.offset + static_cast<int64_t>(i) * H;
                    for (int j = 0; j < H; ++j) dfull[j] += pw[j] * dh[i];
                }
            } else {
                std::copy(dh, dh + H, dfull);
            }
            const C *a = saved(pl, row);
            switch (net_.cell) {
                case CUDNN_RNN_RELU:
                    for (int i = 0; i < H; ++i) gw[i] = a[i] > C(0) ? dfull[i] : C(0);
                    break;
                case CUDNN_RNN_TANH:
                    for (int i = 0; i < H; ++i) gw[i] = dfull[i] * (C(1) - a[i] * a[i]);
                    break;
                case CUDNN_LSTM: {
                    const C *c_prev = nullptr;
                    if (s > 0) {
                        const int tp = dir == 0 ? t - 1 : t + 1;
                        c_prev = saved(pl, static_cast<int64_t>(tp) * N + n) + 4 * H;
                    }
                    for (int i = 0; i < H; ++i) {
                        const C in_gate = a[i], forget = a[H + i], cell = a[2 * H + i], out_gate = a[3 * H + i];
                        const C c = a[4 * H + i], tc = std::tanh(c);
                        const C cp = c_prev ? c_prev[i] : cx ? E::load(cx[state_row * H + i]) : C(0);
                        const C dct = rnn_cell_clipped(p_, c) ? C(0) : dc[i] + dfull[i] * out_gate * (C(1) - tc * tc);
                        gw[i] = dct * cell * in_gate * (C(1) - in_gate);
                        gw[H + i] = dct * cp * forget * (C(1) - forget);
                        gw[2 * H + i] = dct * in_gate * (C(1) - cell * cell);
                        gw[3 * H + i] = dfull[i] * tc * out_gate * (C(1) - out_gate);
                        dc[i] = dct * forget;
                    }
                    break;
                }
                default: {
                    const C *h_prev = previous_h(pl, layer, dir, n, s, dprev);
                    const RnnWeightEntry &rh = r[2];
                    for (int i = 0; i < H; ++i) {
                        const C reset = a[i], update = a[H + i], cand = a[2 * H + i];
                        C pre = rh_bias.present ? weights_[rh_bias.offset + i] : C(0);
                        const C *rw = weights_ + rh.offset + static_cast<int64_t>(i) * P;
                        for (int j = 0; j < P; ++j) pre += rw[j] * h_prev[j];
                        const C dcand = dfull[i] * (C(1) - update) * (C(1) - cand * cand);
                        gw[i] = dcand * pre * reset * (C(1) - reset);
                        gw[H + i] = dfull[i] * (h_prev[i] - cand) * update * (C(1) - update);
                        gw[2 * H + i] = dcand;
                        gr[2 * H + i] = dcand * reset;
                    }
                    break;
                }
            }
            for (int k = 0; k < g; ++k)
                if (net_.cell != CUDNN_GRU || k < 2) std::copy(gw + k * H, gw + (k + 1) * H, gr + k * H);
            // dh for the previous step: R^T gr (+ z * dh' for the GRU), dc already carried.
            for (int j = 0; j < P; ++j) dprev[j] = 0;
            if (net_.cell == CUDNN_GRU)
                for (int i = 0; i < H; ++i) dprev[i] = dfull[i] * a[H + i];
            for (int k = 0; k < g; ++k)
                for (int i = 0; i < H; ++i) {
                    const C *rw = weights_ + r[k].offset + static_cast<int64_t>(i) * P;
                    const C v = gr[k * H + i];
                    for (int j = 0; j < P; ++j) dprev[j] += rw[j] * v;
                }
            std::copy(dprev, dprev + P, dh);
            // The layer input's gradient: W^T gw (W the identity with CUDNN_SKIP_INPUT).
            C *din = input_ + row * width;
            for (int k = 0; k < g; ++k)
                for (int i = 0; i < H; ++i) {
                    const C v = gw[k * H + i];
                    if (!w[k].present) {
                        din[i] += v;
                        continue;
                    }
                    const C *ww = weights_ + w[k].offset + static_cast<int64_t>(i) * width;
                    for (int j = 0; j < width; ++j) din[j] += ww[j] * v;
                }
        }
        T *dhx = static_cast<T *>(b_.dhx), *dcx = static_cast<T *>(b_.dcx);
        if (dhx)
            for (int i = 0; i < P; ++i) dhx[state_row * P + i] = E::store(dh[i]);
        if (dcx && net_.cell == CUDNN_LSTM)
            for (int i = 0; i < H; ++i) dcx[state_row * H + i] = E::store(dc[i]);
    }

    // One row of the gradients of pseudo-layer pl: row < g*H an input-side row (W_k row i and b_Wk[i]),
    // then g*H recurrent-side rows (R_k row i, b_Rk[i]), then the projection's rows.
    void weight_row(int pl, int layer, int dir, int row_id, int width, const C *in) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size, N = p_.batch_size;
        std::vector<C> scratch(static_cast<size_t>(P));
        const bool projection_row = row_id >= 2 * g * H;
        const bool recurrent = !projection_row && row_id >= g * H;
        const int id = projection_row ? 2 * g : row_id / H;
        const int i = projection_row ? row_id - 2 * g * H : row_id % H;
        const RnnWeightEntry m = rnn_matrix_entry(net_, pl, projection_row ? 2 * g : id);
        const RnnWeightEntry bias = projection_row ? RnnWeightEntry{} : rnn_bias_entry(net_, pl, id);
        const int gate = recurrent ? id - g : id;
        const int cols = m.cols;
        C *mw = m.present ? weights_ + m.offset + static_cast<int64_t>(i) * cols : nullptr;
        for (int n = 0; n < N; ++n) {
            const int len = length(n);
            for (int s = 0; s < len; ++s) {
                const int t = dir == 0 ? s : len - 1 - s;
                const int64_t row = static_cast<int64_t>(t) * N + n;
                const C *grad = gradients(pl, row);
                if (projection_row) {
                    const C v = grad[2 * g * H + i];
                    const C *full = saved(pl, row) + 5 * H;
                    for (int j = 0; j < H; ++j) mw[j] += v * full[j];
                    continue;
                }
                const C v = grad[(recurrent ? g * H : 0) + gate * H + i];
                if (bias.present) weights_[bias.offset + i] += v;
                if (!mw) continue;
                const C *src = recurrent ? previous_h(pl, layer, dir, n, s, scratch.data()) : in + row * width;
                for (int j = 0; j < cols; ++j) mw[j] += v * src[j];
            }
        }
    }

    const RnnProblem &p_;
    const RnnBuffers &b_;
    const RnnNetwork &net_;
    C *weights_, *input_, *output_, *state_, *reserve_;
    int64_t steps_, forward_block_, gradient_block_, gradient_start_;
};

}  // namespace

Status host_rnn_backward(const ExecutionContext &context, const RnnProblem &problem, const RnnBuffers &buffers) {
    host::with_floating_point_type(problem.net.data_type, [&](auto tag) {
        using T = typename decltype(tag)::type;
        Backward<T> pass(problem, buffers, context.workspace);
        if (problem.direction == RnnDirection::backward_data)
            pass.data();
        else
            pass.weights();
    });
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn
