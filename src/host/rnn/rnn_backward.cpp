// The host RNN backward passes (docs/RNN.md). Backward data runs back-propagation through time, layer by
// layer from the last, each direction of a layer in turn, every sequence a step at a time: each step's
// cell gradients per sequence (sequences over the threads), then R^T times the recurrent gate gradients of
// all sequences as one matrix product (host/common/gemm.hpp); after the last step, the layer input's
// gradient of every step as one product with W. The gate gradients come from the gate activations, cell
// states and layer outputs the training forward left in the reserve space; backward data writes them to
// the reserve space's gradients' part, where backward weights reads them (nothing passes between the two
// calls but the reserve space). Backward weights then forms each weight matrix's gradient as products of
// the gate gradients with the layer input, the previous step's h or the unprojected h, over the valid rows
// (the weight rows over the threads). With dropout between layers, the gradient reaching a layer's output
// from the layer above and the input backward weights multiplies by are the forward's (the dropout factors
// of the reserve space); with LSTM cell clipping, the gradient stops at a clipped c. Every sum keeps one
// order whatever the thread count.
#include "host/common/gemm.hpp"
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
        output_ = at, at += sizes.output;
        scratch_ = at, at += sizes.input_projection;
        state_ = at;
        reserve_ = static_cast<C *>(b.reserve);
        steps_ = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
        forward_block_ = rnn_reserve_forward_block(net_);
        gradient_block_ = rnn_reserve_gradient_block(net_);
        gradient_start_ = rnn_reserve_gradient_start(p);
        // The valid rows (t, n), t below sequence n's length, as runs of consecutive rows t * N + n.
        for (int64_t row = 0; row < steps_; ++row) {
            if (static_cast<int>(row / p.batch_size) >= length(static_cast<int>(row % p.batch_size))) continue;
            if (!valid_runs_.empty() && valid_runs_.back().end == row)
                valid_runs_.back().end = row + 1;
            else
                valid_runs_.push_back({row, row + 1});
        }
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
                recur_back_layer(pl, layer, dir, width);
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
            // Each valid row's previous h (hx, or zeros, at a sequence's first step), [T][N][P].
            for (int n = 0; n < p_.batch_size; ++n)
                for (int s = 0; s < length(n); ++s) {
                    const int t = dir == 0 ? s : length(n) - 1 - s;
                    C *to = scratch_ + (static_cast<int64_t>(t) * p_.batch_size + n) * P;
                    const C *from = previous_h(pl, layer, dir, n, s, to);
                    if (from != to) std::copy(from, from + P, to);
                }
            // Rows: g*H input-side rows, g*H recurrent-side rows, P projection rows; each a gradient summed
            // over the valid rows (run by run, in row order) as matrix products.
            const int rows = 2 * g * H + (net_.projection() ? P : 0);
            host::parallel_for(rows, 16, [&](int64_t begin, int64_t end, int) {
                int64_t row = begin;
                while (row < end) {
                    // One matrix's rows [row, last) of this part.
                    const bool projection_row = row >= 2 * g * H;
                    const int id = projection_row ? 2 * g : static_cast<int>(row / H);
                    const int64_t first_of_matrix = projection_row ? 2 * g * H : static_cast<int64_t>(id) * H;
                    const int64_t last = std::min<int64_t>(end, first_of_matrix + (projection_row ? P : H));
                    weight_rows(pl, id, static_cast<int>(row - first_of_matrix),
                                static_cast<int>(last - first_of_matrix), width, in);
                    row = last;
                }
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

    // Back-propagation through time of every sequence through pseudo-layer pl, a step at a time from each
    // sequence's last (step s of each sequence still covering it, in reverse order): each sequence's cell
    // gradients (sequences over the threads; the gate gradients go to the reserve space), then dh for the
    // previous step of all sequences at once, R^T times the recurrent gate gradients (one matrix product,
    // R read once a step, the columns over the threads). Last, the layer input's gradient for every step:
    // W^T times the input-side gate gradients, one matrix product (rows over the threads).
    void recur_back_layer(int pl, int layer, int dir, int width) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size, N = p_.batch_size;
        const int64_t gate_rows = static_cast<int64_t>(g) * H, stride = 2 * static_cast<int64_t>(P) + 2 * H;
        const T *dhy = static_cast<const T *>(b_.dhy), *dcy = static_cast<const T *>(b_.dcy);
        for (int n = 0; n < N; ++n) {
            C *dh = state_ + n * stride, *dc = dh + P;
            const int64_t state_row = static_cast<int64_t>(pl) * N + n;
            for (int i = 0; i < P; ++i) dh[i] = dhy ? E::load(dhy[state_row * P + i]) : C(0);
            for (int i = 0; i < H; ++i) dc[i] = dcy ? E::load(dcy[state_row * H + i]) : C(0);
        }
        RnnWeightEntry w[4], r[4];
        for (int k = 0; k < g; ++k) w[k] = rnn_matrix_entry(net_, pl, k), r[k] = rnn_matrix_entry(net_, pl, g + k);
        int longest = 0;
        for (int n = 0; n < N; ++n) longest = std::max(longest, length(n));
        for (int s = longest - 1; s >= 0; --s) {
            // The recurrent gate gradients of this step, one row a sequence (zeros for a sequence not at s).
            host::parallel_for(N, 1, [&](int64_t begin, int64_t end, int) {
                for (int64_t n = begin; n < end; ++n) {
                    C *recurrent = scratch_ + n * gate_rows;
                    const int len = length(static_cast<int>(n));
                    if (s >= len) {
                        std::fill(recurrent, recurrent + gate_rows, C(0));
                        continue;
                    }
                    cell_back(pl, layer, dir, static_cast<int>(n), s, recurrent);
                }
            });
            // dh for the previous step: R^T gr (+ z * dh' for the GRU, which cell_back left in dprev).
            host::parallel_for(P, 16, [&](int64_t begin, int64_t end, int) {
                for (int k = 0; k < g; ++k)
                    host::gemm_nn<C>(end - begin, H, scratch_ + static_cast<int64_t>(k) * H, gate_rows,
                                     weights_ + r[k].offset + begin, P, state_ + P + 2 * H + begin, stride, 0, N);
            });
            for (int n = 0; n < N; ++n)
                if (s < length(n)) {
                    C *dh = state_ + n * stride;
                    std::copy(dh + P + 2 * H, dh + 2 * P + 2 * H, dh);
                }
        }
        T *dhx = static_cast<T *>(b_.dhx), *dcx = static_cast<T *>(b_.dcx);
        for (int n = 0; n < N; ++n) {
            const C *dh = state_ + n * stride, *dc = dh + P;
            const int64_t state_row = static_cast<int64_t>(pl) * N + n;
            if (dhx)
                for (int i = 0; i < P; ++i) dhx[state_row * P + i] = E::store(dh[i]);
            if (dcx && net_.cell == CUDNN_LSTM)
                for (int i = 0; i < H; ++i) dcx[state_row * H + i] = E::store(dc[i]);
        }
        // The layer input's gradient, W^T gw (W the identity with CUDNN_SKIP_INPUT), over the valid rows.
        const C *grad = gradients(pl, 0);
        for (const RowRun &run : valid_runs_) {
            host::parallel_for(run.end - run.begin, 16, [&](int64_t begin, int64_t end, int) {
                for (int k = 0; k < g; ++k) {
                    if (w[k].present) {
                        host::gemm_nn<C>(width, H, grad + k * H, gradient_block_, weights_ + w[k].offset, width, input_,
                                         width, run.begin + begin, run.begin + end);
                        continue;
                    }
                    for (int64_t row = run.begin + begin; row < run.begin + end; ++row)
                        for (int i = 0; i < H; ++i) input_[row * width + i] += grad[row * gradient_block_ + k * H + i];
                }
            });
        }
    }

    // Sequence n's gradients at its step s: dh (the carried one plus the layer output's), back through the
    // projection and the cell, into the reserve space's gate gradients; `recurrent` receives the recurrent
    // gate gradients, dprev (the state's last P) the GRU's z * dh' (else 0), dc is carried.
    void cell_back(int pl, int layer, int dir, int n, int s, C *recurrent) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size, N = p_.batch_size, Y = p_.y_size();
        C *dh = state_ + static_cast<int64_t>(n) * (2 * P + 2 * H);
        C *dc = dh + P, *dfull = dc + H, *dprev = dfull + H;
        const T *cx = static_cast<const T *>(b_.cx);
        const int64_t state_row = static_cast<int64_t>(pl) * N + n;
        const RnnWeightEntry rh_bias = g == 3 ? rnn_bias_entry(net_, pl, g + 2) : RnnWeightEntry{};
        const RnnWeightEntry projection = rnn_matrix_entry(net_, pl, 2 * g);
        const int len = length(n);
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
                const RnnWeightEntry rh = rnn_matrix_entry(net_, pl, g + 2);
                for (int i = 0; i < H; ++i) {
                    const C reset = a[i], update = a[H + i], cand = a[2 * H + i];
                    const C pre = (rh_bias.present ? weights_[rh_bias.offset + i] : C(0)) +
                                  host::dot(weights_ + rh.offset + static_cast<int64_t>(i) * P, h_prev, P);
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
        std::copy(gr, gr + g * H, recurrent);
        for (int j = 0; j < P; ++j) dprev[j] = 0;
        if (net_.cell == CUDNN_GRU)
            for (int i = 0; i < H; ++i) dprev[i] = dfull[i] * a[H + i];
    }

    // Rows [i0, i1) of the gradient of matrix `id` of pseudo-layer pl (linLayerID: below g the input-side
    // W_k, then the recurrent R_k, 2g the projection) and of its bias: the gate gradients of the valid rows
    // times the layer input, the previous h (in scratch_) or the unprojected h.
    void weight_rows(int pl, int id, int i0, int i1, int width, const C *in) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size;
        const bool projection_row = id == 2 * g, recurrent = !projection_row && id >= g;
        const RnnWeightEntry m = rnn_matrix_entry(net_, pl, id);
        const RnnWeightEntry bias = projection_row ? RnnWeightEntry{} : rnn_bias_entry(net_, pl, id);
        const int64_t column = projection_row ? 2 * g * H : (recurrent ? g * H : 0) + (id % g) * H;
        const C *grad = gradients(pl, 0) + column;
        const C *source = projection_row ? saved(pl, 0) + 5 * H : recurrent ? scratch_ : in;
        const int64_t source_ld = projection_row ? forward_block_ : recurrent ? P : width;
        for (const RowRun &run : valid_runs_) {
            if (m.present)
                host::gemm_tn<C>(m.cols, run.end - run.begin, grad + run.begin * gradient_block_, gradient_block_,
                                 source + run.begin * source_ld, source_ld, weights_ + m.offset, m.cols, i0, i1);
            if (bias.present)
                for (int64_t row = run.begin; row < run.end; ++row)
                    for (int i = i0; i < i1; ++i) weights_[bias.offset + i] += grad[row * gradient_block_ + i];
        }
    }

    const RnnProblem &p_;
    const RnnBuffers &b_;
    const RnnNetwork &net_;
    // Consecutive rows t * N + n that are all valid.
    struct RowRun {
        int64_t begin, end;
    };

    C *weights_, *input_, *output_, *state_, *reserve_;
    C *scratch_;  // the workspace's W x part, unused backward: a step's recurrent gradients; each row's previous h
    int64_t steps_, forward_block_, gradient_block_, gradient_start_;
    std::vector<RowRun> valid_runs_;
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
