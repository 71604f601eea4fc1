// The host RNN forward pass (ops/rnn/problem.hpp has the cells). The weights are converted to the compute
// type once (float for half and float data, double for double) and keep the weight-space layout; the
// data moves into a dense [T][N][width] buffer. Each layer and direction first computes W x + b_W for
// every (t, n) at once, a matrix product with the rows over the threads (host/common/gemm.hpp), then runs
// the recurrence a step at a time for all sequences: R h + b_R of every sequence as one product (the gate
// rows over the threads), then each sequence's cell (sequences over the threads). Every sum keeps one
// order whatever the thread count. Training keeps the gate activations, cell states and layer outputs in
// the reserve space (its layout: ops/rnn/problem.hpp), and with dropout between layers the factors the
// next layer's input was multiplied by (drawn as ops/rnn/dropout_mask.hpp says; the call is counted in the
// states).
#include "host/common/gemm.hpp"
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/rnn/internal.hpp"
#include "host/rnn/solvers.hpp"
#include "ops/dropout/problem.hpp"
#include "ops/rnn/dropout_mask.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace librednn {

RnnHostWorkspace rnn_host_workspace(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
    const int64_t widest = std::max<int64_t>(net.input_size, p.y_size());
    // Per sequence: h (proj), c (hidden), the unprojected h (hidden) and the gate pre-activations.
    const int64_t state = static_cast<int64_t>(p.batch_size) *
                          (net.proj_size + 2 * net.hidden_size + static_cast<int64_t>(net.gates()) * net.hidden_size);
    return {rnn_weight_elements(net), steps * widest, steps * p.y_size(),
            steps * net.gates() * static_cast<int64_t>(net.hidden_size), state};
}

namespace {

template <class C>
C sigmoid(C v) {
    return C(1) / (C(1) + std::exp(-v));
}

template <class T>
class Forward {
    using E = host::HostElement<T>;
    using C = typename E::Compute;

public:
    Forward(const RnnProblem &p, const RnnBuffers &b, void *workspace) : p_(p), b_(b), net_(p.net) {
        const RnnHostWorkspace sizes = rnn_host_workspace(p);
        C *at = static_cast<C *>(workspace);
        weights_ = at, at += sizes.weights;
        input_ = at, at += sizes.input;
        output_ = at, at += sizes.output;
        gx_ = at, at += sizes.input_projection;
        state_ = at;
        reserve_ = static_cast<C *>(b.reserve);
        steps_ = static_cast<int64_t>(p.max_seq_length) * p.batch_size;
        per_pseudo_layer_ = rnn_reserve_forward_block(net_);
    }

    Status run() {
        DropoutState dropout{};
        if (p_.dropout_between_layers()) {
            std::memcpy(&dropout, b_.dropout_states, sizeof dropout);
            if (dropout.magic != kDropoutStateMagic || dropout.version != kDropoutStateVersion)
                return fail(CUDNN_STATUS_BAD_PARAM,
                            "the RNN descriptor's dropout states were not initialised by cudnnSetDropoutDescriptor "
                            "(magic %08x, version %u)",
                            dropout.magic, dropout.version);
        }
        rnn_load_weights<T>(net_, b_.weights, weights_);
        rnn_load_sequences<T>(p_, b_.x, net_.input_size, input_, false);
        int width = net_.input_size;
        for (int layer = 0; layer < net_.layers; ++layer) {
            C *out = p_.training ? reserve_ + reserve_output_start(layer) : output_;
            for (int dir = 0; dir < net_.directions(); ++dir) {
                const int pl = layer * net_.directions() + dir;
                project_inputs(pl, width);
                recur_layer(pl, dir, out);
            }
            if (layer + 1 < net_.layers) {
                width = p_.y_size();
                if (p_.dropout_between_layers())
                    drop(layer, dropout, out);
                else
                    std::memcpy(input_, out, static_cast<size_t>(steps_ * width) * sizeof(C));
            } else {
                store_y(out);
            }
        }
        if (p_.dropout_between_layers()) {
            // Count the call, as cudnnDropoutForward does: the next training forward draws a fresh mask.
            dropout.calls += 1;
            std::memcpy(static_cast<uint8_t *>(b_.dropout_states) + offsetof(DropoutState, calls), &dropout.calls,
                        sizeof dropout.calls);
        }
        return CUDNN_STATUS_SUCCESS;
    }

private:
    int length(int n) const { return p_.seq_lengths[static_cast<size_t>(n)]; }
    int64_t reserve_output_start(int layer) const {
        return steps_ * per_pseudo_layer_ * net_.pseudo_layers() + steps_ * p_.y_size() * layer;
    }

    // The next layer's input: layer `layer`'s output times its dropout factors, which go to the reserve space.
    void drop(int layer, const DropoutState &dropout, const C *out) {
        const int steps = p_.max_seq_length, N = p_.batch_size, Y = p_.y_size();
        const C scale = std::is_same<C, double>::value ? static_cast<C>(dropout_scale_double(p_.dropout))
                                                       : static_cast<C>(dropout_scale_float(p_.dropout));
        const uint64_t threshold = dropout_threshold(p_.dropout);
        C *factors = reserve_ + rnn_reserve_dropout_start(p_) + steps_ * Y * layer;
        host::parallel_for(steps_, 64, [&](int64_t begin, int64_t end, int) {
            for (int64_t row = begin; row < end; ++row) {
                const int t = static_cast<int>(row / N), n = static_cast<int>(row % N);
                for (int i = 0; i < Y; ++i) {
                    const uint64_t e = rnn_dropout_element(layer, t, n, i, steps, N, Y);
                    const C factor = rnn_dropout_kept(dropout.key, dropout.calls, threshold, e) ? scale : C(0);
                    factors[row * Y + i] = factor;
                    input_[row * Y + i] = out[row * Y + i] * factor;
                }
            }
        });
    }

    // gx[t][n] = W x + b_W for every (t, n) (rows beyond a sequence's length too: nothing reads them): a
    // matrix product per gate, rows over the threads, each sum in host::dot's order.
    void project_inputs(int pl, int width) {
        const int g = net_.gates(), H = net_.hidden_size;
        host::parallel_for(steps_, 16, [&](int64_t begin, int64_t end, int) {
            for (int k = 0; k < g; ++k) {
                const RnnWeightEntry m = rnn_matrix_entry(net_, pl, k), bias = rnn_bias_entry(net_, pl, k);
                for (int64_t row = begin; row < end; ++row) {
                    C *out = gx_ + row * g * H + k * H;
                    const C *x = input_ + row * width;
                    for (int i = 0; i < H; ++i)
                        out[i] = (bias.present ? weights_[bias.offset + i] : C(0)) + (m.present ? C(0) : x[i]);
                }
                // CUDNN_SKIP_INPUT: W is the identity, added above.
                if (m.present)
                    host::gemm_nt<C>(H, width, input_, width, weights_ + m.offset, width, gx_ + k * H,
                                     static_cast<int64_t>(g) * H, begin, end);
            }
        });
    }

    // Every sequence through pseudo-layer pl, a step at a time: step s of each sequence still running (its
    // time t = s, or len - 1 - s in the reverse direction). Each step's recurrent products R h + b_R for all
    // sequences are one matrix product (the gate rows over the threads, R read once a step), then each
    // sequence's cell (sequences over the threads).
    void recur_layer(int pl, int dir, C *out) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size, N = p_.batch_size;
        const int64_t stride = P + 2 * static_cast<int64_t>(H) + static_cast<int64_t>(g) * H;
        const T *hx = static_cast<const T *>(b_.hx), *cx = static_cast<const T *>(b_.cx);
        for (int n = 0; n < N; ++n) {
            C *h = state_ + n * stride, *c = h + P;
            for (int i = 0; i < P; ++i) h[i] = hx ? E::load(hx[(static_cast<int64_t>(pl) * N + n) * P + i]) : C(0);
            for (int i = 0; i < H; ++i) c[i] = cx ? E::load(cx[(static_cast<int64_t>(pl) * N + n) * H + i]) : C(0);
        }
        RnnWeightEntry r[4], rb[4];
        for (int k = 0; k < g; ++k) r[k] = rnn_matrix_entry(net_, pl, g + k), rb[k] = rnn_bias_entry(net_, pl, g + k);
        int longest = 0;
        for (int n = 0; n < N; ++n) longest = std::max(longest, length(n));
        const int64_t gate_rows = static_cast<int64_t>(g) * H;
        for (int s = 0; s < longest; ++s) {
            // pre[n][k][i] = R_k h_n + b_Rk (kept apart from W x for the GRU's r * (R_h h + b_Rh)), for every
            // sequence (a finished one's is not read).
            host::parallel_for(gate_rows, 16, [&](int64_t begin, int64_t end, int) {
                for (int k = 0; k < g; ++k) {
                    const int64_t first = std::max<int64_t>(begin, static_cast<int64_t>(k) * H);
                    const int64_t last = std::min<int64_t>(end, static_cast<int64_t>(k + 1) * H);
                    if (first >= last) continue;
                    const int i0 = static_cast<int>(first - static_cast<int64_t>(k) * H);
                    const int i1 = static_cast<int>(last - static_cast<int64_t>(k) * H);
                    for (int n = 0; n < N; ++n) {
                        C *pre = state_ + n * stride + P + 2 * H + k * H;
                        for (int i = i0; i < i1; ++i) pre[i] = rb[k].present ? weights_[rb[k].offset + i] : C(0);
                    }
                    host::gemm_nt<C>(i1 - i0, P, state_, stride, weights_ + r[k].offset + static_cast<int64_t>(i0) * P,
                                     P, state_ + P + 2 * H + k * H + i0, stride, 0, N);
                }
            });
            host::parallel_for(N, 1, [&](int64_t begin, int64_t end, int) {
                for (int64_t n = begin; n < end; ++n) {
                    const int len = length(static_cast<int>(n));
                    if (s < len) cell(pl, dir, static_cast<int>(n), dir == 0 ? s : len - 1 - s, out);
                }
            });
        }
        T *hy = static_cast<T *>(b_.hy), *cy = static_cast<T *>(b_.cy);
        for (int n = 0; n < N; ++n) {
            const C *h = state_ + n * stride, *c = h + P;
            if (hy)
                for (int i = 0; i < P; ++i) hy[(static_cast<int64_t>(pl) * N + n) * P + i] = E::store(h[i]);
            if (cy && net_.cell == CUDNN_LSTM)
                for (int i = 0; i < H; ++i) cy[(static_cast<int64_t>(pl) * N + n) * H + i] = E::store(c[i]);
        }
    }

    // Sequence n's cell at time t, its recurrent products in its state's pre: the new h (and c), the reserve
    // space's values in training, the layer output.
    void cell(int pl, int dir, int n, int t, C *out) {
        const int g = net_.gates(), H = net_.hidden_size, P = net_.proj_size, N = p_.batch_size;
        C *h = state_ + static_cast<int64_t>(n) * (P + 2 * H + g * H);
        C *c = h + P, *full = c + H, *pre = full + H;
        const RnnWeightEntry projection = rnn_matrix_entry(net_, pl, 2 * g);
        const int64_t row = static_cast<int64_t>(t) * N + n;
        const C *gx = gx_ + row * g * H;
        C *saved = p_.training ? reserve_ + (static_cast<int64_t>(pl) * steps_ + row) * per_pseudo_layer_ : nullptr;
        for (int i = 0; i < H; ++i) {
            switch (net_.cell) {
                case CUDNN_RNN_RELU: full[i] = std::max(C(0), gx[i] + pre[i]); break;
                case CUDNN_RNN_TANH: full[i] = std::tanh(gx[i] + pre[i]); break;
                case CUDNN_LSTM: {
                    const C in_gate = sigmoid(gx[i] + pre[i]), forget = sigmoid(gx[H + i] + pre[H + i]);
                    const C cell_value = std::tanh(gx[2 * H + i] + pre[2 * H + i]);
                    const C out_gate = sigmoid(gx[3 * H + i] + pre[3 * H + i]);
                    c[i] = rnn_clip_cell(p_, forget * c[i] + in_gate * cell_value);
                    full[i] = out_gate * std::tanh(c[i]);
                    if (saved)
                        saved[i] = in_gate, saved[H + i] = forget, saved[2 * H + i] = cell_value,
                        saved[3 * H + i] = out_gate, saved[4 * H + i] = c[i];
                    break;
                }
                default: {
                    const C reset = sigmoid(gx[i] + pre[i]), update = sigmoid(gx[H + i] + pre[H + i]);
                    const C candidate = std::tanh(gx[2 * H + i] + reset * pre[2 * H + i]);
                    full[i] = (C(1) - update) * candidate + update * h[i];
                    if (saved) saved[i] = reset, saved[H + i] = update, saved[2 * H + i] = candidate;
                    break;
                }
            }
        }
        if (saved && g == 1)
            for (int i = 0; i < H; ++i) saved[i] = full[i];
        if (projection.present) {
            if (saved)
                for (int i = 0; i < H; ++i) saved[5 * H + i] = full[i];
            for (int i = 0; i < P; ++i)
                h[i] = host::dot(weights_ + projection.offset + static_cast<int64_t>(i) * H, full, H);
        } else {
            std::copy(full, full + P, h);
        }
        std::copy(h, h + P, out + row * p_.y_size() + dir * P);
    }

    // y from the last layer's outputs, the padding fill beyond each sequence's length.
    void store_y(const C *out) {
        T *y = static_cast<T *>(b_.y);
        const int width = p_.y_size();
        const T fill = E::from_double(p_.padding_fill);
        for (int t = 0; t < p_.max_seq_length; ++t)
            for (int n = 0; n < p_.batch_size; ++n) {
                const bool valid = t < length(n);
                if (!valid && p_.layout == CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_PACKED) continue;
                const C *row = out + (static_cast<int64_t>(t) * p_.batch_size + n) * width;
                T *step = y + rnn_data_offset(p_, width, t, n, 0);
                for (int i = 0; i < width; ++i) step[i] = valid ? E::store(row[i]) : fill;
            }
    }

    const RnnProblem &p_;
    const RnnBuffers &b_;
    const RnnNetwork &net_;
    C *weights_, *input_, *output_, *gx_, *state_, *reserve_;
    int64_t steps_, per_pseudo_layer_;
};

class HostRnn final : public RnnSolver {
public:
    const char *name() const override { return "host_rnn"; }
    SolverId id() const override { return SolverId::host_rnn; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const RnnProblem &) const override { return Applicability::yes(); }
    size_t workspace_bytes(const RnnProblem &p) const override {
        const RnnHostWorkspace w = rnn_host_workspace(p);
        const size_t element = p.net.data_type == CUDNN_DATA_DOUBLE ? sizeof(double) : sizeof(float);
        return static_cast<size_t>(w.weights + w.input + w.output + w.input_projection + w.state) * element;
    }
    Status run(const ExecutionContext &context, const RnnProblem &problem, const RnnBuffers &buffers) const override {
        if (problem.direction != RnnDirection::forward) return host_rnn_backward(context, problem, buffers);
        Status status = CUDNN_STATUS_SUCCESS;
        host::with_floating_point_type(problem.net.data_type, [&](auto tag) {
            using T = typename decltype(tag)::type;
            status = Forward<T>(problem, buffers, context.workspace).run();
        });
        return status;
    }
};

}  // namespace

const RnnSolver &host_rnn_solver() {
    static const HostRnn solver;
    return solver;
}

}  // namespace librednn
