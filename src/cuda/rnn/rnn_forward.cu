// The CUDA RNN forward pass (cudnnRNNForward; cuda/rnn/rnn.hpp). Per layer and direction: W x + b_W for
// every step in one product, then the recurrence one step at a time over the whole batch: R h + b_R (a
// product), the cell (a kernel), and with the recurrent projection P h (a product) and a kernel that
// takes the new h; or, where it applies (from batch 32, no projection), the fused step (rnn_fused_step.hpp),
// one kernel for R h + b_R and the cell; or, for small batches (no projection), the persistent kernel
// (rnn_persistent.hpp), one launch for all the steps. Training keeps the gate activations, cell states, unprojected h
// and layer outputs in the reserve space, in the layout the host backend uses (ops/rnn/problem.hpp); with dropout
// between layers, a kernel draws each layer's factors (ops/rnn/dropout_mask.hpp) and multiplies the next
// layer's input by them.
#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_fused_step.hpp"
#include "cuda/rnn/rnn_kernels.cuh"
#include "cuda/rnn/rnn_persistent.hpp"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_products.hpp"
#include "cuda/rnn/rnn_wavefront.hpp"
#include "ops/dropout/problem.hpp"
#include "ops/rnn/dropout_mask.hpp"

#include <algorithm>
#include <type_traits>

namespace librednn::cuda {

namespace {

// to[e] = from[e] rounded to TF32 (in place where to is from): the W x products' operands where the pass prepares
// them (rnn_prepares_tf32_operands).
__global__ void __launch_bounds__(kRnnBlock) round_tf32_kernel(const float *from, int64_t count, float *to) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        to[e] = __uint_as_float(tf32_bits(from[e]));
}

template <class C>
Status round_tf32(cudaStream_t stream, const C *from, int64_t count, C *to) {
    if constexpr (std::is_same_v<C, float>) {
        round_tf32_kernel<<<rnn_grid(count), kRnnBlock, 0, stream>>>(from, count, to);
        return check_launch("round_tf32_kernel");
    }
    return CUDNN_STATUS_SUCCESS;
}

template <class C>
__global__ void __launch_bounds__(kRnnBlock) cell_forward_kernel(const __grid_constant__ CellForward<C> a) {
    const int64_t total = static_cast<int64_t>(a.N) * a.H;
    const int H = a.H;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / H), i = static_cast<int>(e % H);
        const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
        if (t < 0) continue;
        C *st = a.state + n * a.spn;
        const C *pre = st + a.at.pre;
        C h;
        if (!rnn_cell_forward_unit(
                a, n, i, t, [&](int q) { return pre[q * H + i]; }, st[a.at.h + i], &h))
            continue;
        st[a.at.h + i] = h;
        a.out[(static_cast<int64_t>(t) * a.N + n) * a.out_row + static_cast<int64_t>(a.dir) * a.P + i] = h;
    }
}

// h = P h' for the sequences that took step s, into the state and the layer output.
template <class C>
__global__ void __launch_bounds__(kRnnBlock) take_projected_kernel(const __grid_constant__ CellForward<C> a) {
    const int64_t total = static_cast<int64_t>(a.N) * a.P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / a.P), i = static_cast<int>(e % a.P);
        const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
        if (t < 0) continue;
        C *st = a.state + n * a.spn;
        const C h = st[a.at.h_new + i];
        st[a.at.h + i] = h;
        a.out[(static_cast<int64_t>(t) * a.N + n) * a.out_row + static_cast<int64_t>(a.dir) * a.P + i] = h;
    }
}

// CUDNN_SKIP_INPUT: W is the identity, so gate k's W x + b_W is x + b_Wk.
template <class C>
__global__ void __launch_bounds__(kRnnBlock)
    skip_input_kernel(const C *in, int64_t steps, int H, int gates, const C *bias, C *out) {
    const int64_t total = steps * gates * H;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t row = e / (static_cast<int64_t>(gates) * H);
        const int j = static_cast<int>(e % (static_cast<int64_t>(gates) * H));
        out[e] = in[row * H + j % H] + (bias ? bias[j] : C(0));
    }
}

// Layer `layer`'s dropout: its factors (0, or `scale` where kept) into the reserve space, and the next layer's
// input, the output times them.
template <class C>
__global__ void __launch_bounds__(kRnnBlock)
    dropout_between_layers_kernel(const DropoutState *states, uint64_t threshold, C scale, int layer, int T, int N,
                                  int Y, const C *out, C *factors, C *next_input) {
    const uint32_t key[2] = {states->key[0], states->key[1]};
    const uint64_t call = states->calls;
    const int64_t total = static_cast<int64_t>(T) * N * Y;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t row = e / Y;
        const int t = static_cast<int>(row / N), n = static_cast<int>(row % N), i = static_cast<int>(e % Y);
        const bool kept = rnn_dropout_kept(key, call, threshold, rnn_dropout_element(layer, t, n, i, T, N, Y));
        const C factor = kept ? scale : C(0);
        factors[e] = factor;
        next_input[e] = out[e] * factor;
    }
}

// Counts the training forward as one dropout call, after every dropout kernel has read the call number.
__global__ void count_rnn_dropout_call(DropoutState *states) { states->calls += 1; }

// Pseudo-layer pl's hx (zeros where the call passes none) into h of the states at `base` (a sequence's `stride`
// elements apart), and for the LSTM its cx into c.
template <class T, class C>
Status load_layer_state(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, int pl, const ForwardState &at,
                        C *base, int64_t stride) {
    const int N = p.batch_size, H = p.net.hidden_size, P = p.net.proj_size;
    const int64_t offset = static_cast<int64_t>(pl) * N;
    const T *hx = static_cast<const T *>(b.hx), *cx = static_cast<const T *>(b.cx);
    rnn_load_state_kernel<T, C><<<rnn_grid(int64_t{N} * P), kRnnBlock, 0, stream>>>(
        hx ? hx + offset * P : nullptr, int64_t{N} * P, base + at.h, stride, P);
    LIBREDNN_CHECK(check_launch("rnn_load_state_kernel"));
    if (p.net.cell != CUDNN_LSTM) return CUDNN_STATUS_SUCCESS;
    rnn_load_state_kernel<T, C><<<rnn_grid(int64_t{N} * H), kRnnBlock, 0, stream>>>(
        cx ? cx + offset * H : nullptr, int64_t{N} * H, base + at.c, stride, H);
    return check_launch("rnn_load_state_kernel");
}

// Pseudo-layer pl's last h (at h_last of the states at `base`) into hy, and for the LSTM its c into cy, where the
// call asks for them.
template <class T, class C>
Status store_layer_state(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, int pl, const ForwardState &at,
                         const C *base, int64_t stride, int64_t h_last) {
    const int N = p.batch_size, H = p.net.hidden_size, P = p.net.proj_size;
    const int64_t offset = static_cast<int64_t>(pl) * N;
    if (b.hy) {
        rnn_store_state_kernel<T, C><<<rnn_grid(int64_t{N} * P), kRnnBlock, 0, stream>>>(
            base + h_last, stride, P, int64_t{N} * P, static_cast<T *>(b.hy) + offset * P);
        LIBREDNN_CHECK(check_launch("rnn_store_state_kernel"));
    }
    if (b.cy && p.net.cell == CUDNN_LSTM) {
        rnn_store_state_kernel<T, C><<<rnn_grid(int64_t{N} * H), kRnnBlock, 0, stream>>>(
            base + at.c, stride, H, int64_t{N} * H, static_cast<T *>(b.cy) + offset * H);
        LIBREDNN_CHECK(check_launch("rnn_store_state_kernel"));
    }
    return CUDNN_STATUS_SUCCESS;
}

// Pseudo-layer `dir` of a layer's cell over the states at `base`: its new h to `out` (rows of Y), and in training
// its saved values to `saved` (rows of saved_row).
template <class C>
CellForward<C> forward_cell(const RnnProblem &p, const ForwardState &at, int dir, const int *lengths, const C *gates,
                            C *base, int64_t stride, C *out, int64_t out_row, C *saved, int64_t saved_row) {
    CellForward<C> cell{};
    cell.lengths = lengths, cell.N = p.batch_size, cell.H = p.net.hidden_size, cell.P = p.net.proj_size;
    cell.cell = static_cast<int>(p.net.cell), cell.dir = dir, cell.projection = p.net.projection() ? 1 : 0;
    cell.clip = p.clipping ? 1 : 0, cell.clip_propagate_nan = p.clip_propagate_nan ? 1 : 0;
    cell.lclip = static_cast<C>(p.lclip), cell.rclip = static_cast<C>(p.rclip);
    cell.spn = stride, cell.at = at, cell.gates = gates, cell.state = base;
    cell.out = out, cell.out_row = out_row;
    cell.saved = saved, cell.saved_row = saved_row;
    return cell;
}

// Every layer's steps in one wavefront launch (rnn_wavefront.hpp; every weight but layer 0's W read from the weight
// space as it is), once layer 0's W x + b_W is in at.gates: layer 0's
// state in the state piece, each layer above's h, h_new and c in the split scratch (free once that product is done),
// the last layer's outputs to `out`, then every layer's hy and cy.
template <class T>
Status wavefront_steps(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b,
                       const RnnWorkspacePointers<float> &at, const ForwardState &state, float *out, int steps) {
    const RnnNetwork &net = p.net;
    const int L = net.layers, N = p.batch_size;
    const int64_t above = (2 * static_cast<int64_t>(net.proj_size) + net.hidden_size + 3) / 4 * 4;  // h, h_new, c
    // Cannot fail (the scratch holds at least 16 N gates x hidden elements at these batches); kept as the assumption
    // written down.
    if (static_cast<int64_t>(L - 1) * N * above > at.split_elements)
        return fail(CUDNN_STATUS_INTERNAL_ERROR, "the wavefront RNN's states do not fit the split scratch");
    CellForward<float> cells[kRnnWavefrontMaxLayers];
    WavefrontWeights weights[kRnnWavefrontMaxLayers];
    const T *space = static_cast<const T *>(b.weights);
    for (int l = 0; l < L; ++l) {
        float *base = l == 0 ? at.state : at.split + (l - 1) * N * above;
        const int64_t stride = l == 0 ? at.state_per_sequence : above;
        LIBREDNN_CHECK((load_layer_state<T, float>(stream, p, b, l, state, base, stride)));
        cells[l] = forward_cell<float>(p, state, 0, at.lengths, at.gates, base, stride, l + 1 == L ? out : nullptr,
                                       p.y_size(), nullptr, 0);
        const RnnLayerPlaces places = rnn_layer_places(net, l);
        weights[l].input = l > 0 ? space + places.input_matrices : nullptr;
        weights[l].recurrent = space + places.recurrent_matrices;
        weights[l].input_bias = l > 0 && places.input_biases >= 0 ? space + places.input_biases : nullptr;
        weights[l].recurrent_bias = places.recurrent_biases >= 0 ? space + places.recurrent_biases : nullptr;
    }
    rnn_log_steps(p, "RNN inference steps", 0,
                  {{"wavefront kernel, every layer's steps in one cooperative launch", nullptr}});
    LIBREDNN_CHECK(rnn_wavefront_forward(stream, net.data_type, cells, weights, L, steps));
    const int64_t h_last = steps % 2 == 1 ? state.h_new : state.h;
    for (int l = 0; l < L; ++l)
        LIBREDNN_CHECK((store_layer_state<T, float>(stream, p, b, l, state, cells[l].state, cells[l].spn, h_last)));
    return CUDNN_STATUS_SUCCESS;
}

template <class T, class C>
Status forward(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    const RnnNetwork &net = p.net;
    const int g = net.gates(), H = net.hidden_size, P = net.proj_size, N = p.batch_size, Y = p.y_size();
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * N, gH = static_cast<int64_t>(g) * H;
    RnnWorkspacePointers<C> at = rnn_workspace_pointers<C>(p, workspace);
    const int64_t spn = at.state_per_sequence;
    const ForwardState state = forward_state(net);
    // Every layer's steps in one launch (inference of 2 to 4 unidirectional layers, batches up to 16), else all the
    // steps of each pseudo-layer in one persistent launch (the same batches; asked only where the wavefront declines:
    // each asks the occupancy calculator).
    bool wavefront = false, persistent_forward = false;
    const char *wavefront_declined = "it computes in float only";  // the log's reasons (rnn_log_steps)
    const char *persistent_declined = wavefront_declined;
    if constexpr (std::is_same_v<C, float>) {
        wavefront = rnn_wavefront_forward_applies(p, &wavefront_declined);
        if (!wavefront) persistent_forward = rnn_persistent_forward_applies(p, &persistent_declined);
    }
    LIBREDNN_CHECK(rnn_upload_tables(stream, p, at.lengths, at.rows));
    const bool in_place = rnn_reads_weights_in_place(p, b.weights);
    if (wavefront && !in_place) {
        // The wavefront kernel reads the weight space itself: only layer 0's W and b_W, for W x, in the compute type.
        const RnnLayerPlaces first = rnn_layer_places(net, 0);
        if (first.input_matrices >= 0)
            LIBREDNN_CHECK(
                (rnn_convert_weights<T, C>(stream, b.weights, first.input_matrices, gH * first.width, at.weights)));
        if (first.input_biases >= 0)
            LIBREDNN_CHECK((rnn_convert_weights<T, C>(stream, b.weights, first.input_biases, gH, at.weights)));
    } else {
        LIBREDNN_CHECK(rnn_pass_weights<T>(stream, b.weights, rnn_weight_elements(net), in_place, &at.weights));
    }
    rnn_load_sequences_kernel<T, C><<<rnn_grid(steps * net.input_size), kRnnBlock, 0, stream>>>(
        static_cast<const T *>(b.x), at.rows, at.lengths, N, steps, net.input_size, at.sequence_a);
    LIBREDNN_CHECK(check_launch("rnn_load_sequences_kernel"));
    C *reserve = static_cast<C *>(b.reserve);
    const int64_t forward_block = rnn_reserve_forward_block(net);
    const int64_t outputs_start = steps * forward_block * net.pseudo_layers();
    if (p.training && rnn_has_short_sequences(p)) {
        // The steps beyond a sequence are never written; the backward products read zeros there.
        const cudaError_t error =
            cudaMemsetAsync(reserve, 0, sizeof(C) * static_cast<size_t>(rnn_reserve_gradient_start(p)), stream);
        if (error != cudaSuccess)
            return fail(CUDNN_STATUS_EXECUTION_FAILED, "clearing the RNN reserve space failed: %s",
                        cudaGetErrorString(error));
    }
    const int max_length = *std::max_element(p.seq_lengths.begin(), p.seq_lengths.end());
    const C *in = at.sequence_a;
    C *out = nullptr;
    // The W x products' operands TF32 already where the pass prepares them: W in the converted weights, and the
    // layer input in place where it is the pass's own copy (x, the last layer's output in inference, the dropout
    // factors' product), else (the reserve space's outputs) in sequence_a, free once layer 0 is done.
    const bool tf32_operands = std::is_same_v<C, float> && rnn_prepares_tf32_operands(p);
    for (int layer = 0; layer < net.layers; ++layer) {
        out = p.training ? reserve + outputs_start + steps * Y * layer
                         : (in == at.sequence_a ? at.sequence_b : at.sequence_a);
        const C *product_in = in;
        const RnnLayerPlaces first = rnn_layer_places(net, layer * net.directions());
        if (tf32_operands && first.input_matrices >= 0) {
            C *rounded = in == at.sequence_a || in == at.sequence_b ? const_cast<C *>(in) : at.sequence_a;
            LIBREDNN_CHECK(round_tf32(stream, in, steps * first.width, rounded));
            product_in = rounded;
        }
        for (int dir = 0; dir < net.directions(); ++dir) {
            const int pl = layer * net.directions() + dir;
            const RnnLayerPlaces places = rnn_layer_places(net, pl);
            const int width = places.width;
            const C *input_bias = places.input_biases >= 0 ? at.weights + places.input_biases : nullptr;
            if (places.input_matrices >= 0) {
                GemmOperands<C> wx;
                if (tf32_operands)
                    LIBREDNN_CHECK(round_tf32(stream, at.weights + places.input_matrices, gH * width,
                                              at.weights + places.input_matrices));
                wx.tf32_rounded = tf32_operands;
                wx.scratch = at.split, wx.scratch_elements = at.split_elements;
                wx.m = steps, wx.n = gH, wx.k = width;
                wx.a = product_in, wx.a_row = width, wx.a_col = 1;
                wx.b = at.weights + places.input_matrices, wx.b_row = 1, wx.b_col = width;
                wx.c = at.gates, wx.c_row = gH, wx.bias = input_bias;
                LIBREDNN_CHECK(rnn_product(stream, p, RnnProductScope::all_steps, RnnProductShape::forward, wx));
            } else {
                skip_input_kernel<C>
                    <<<rnn_grid(steps * gH), kRnnBlock, 0, stream>>>(in, steps, H, g, input_bias, at.gates);
                LIBREDNN_CHECK(check_launch("skip_input_kernel"));
            }
            if (wavefront) break;  // layer 0's W x is all the launch needs first
            LIBREDNN_CHECK((load_layer_state<T, C>(stream, p, b, pl, state, at.state, spn)));
            CellForward<C> cell =
                forward_cell<C>(p, state, dir, at.lengths, at.gates, at.state, spn, out, Y,
                                p.training ? reserve + pl * steps * forward_block : nullptr, forward_block);
            GemmOperands<C> recurrent;
            recurrent.scratch = at.split, recurrent.scratch_elements = at.split_elements;
            recurrent.m = N, recurrent.n = gH, recurrent.k = P;
            recurrent.a = at.state + state.h, recurrent.a_row = spn, recurrent.a_col = 1;
            recurrent.b = at.weights + places.recurrent_matrices, recurrent.b_row = 1, recurrent.b_col = P;
            recurrent.c = at.state + state.pre, recurrent.c_row = spn;
            recurrent.bias = places.recurrent_biases >= 0 ? at.weights + places.recurrent_biases : nullptr;
            GemmOperands<C> projection;
            projection.scratch = at.split, projection.scratch_elements = at.split_elements;
            projection.m = N, projection.n = P, projection.k = H;
            projection.a = at.state + state.full, projection.a_row = spn, projection.a_col = 1;
            projection.b = at.weights + places.projection, projection.b_row = 1, projection.b_col = H;
            projection.c = at.state + state.h_new, projection.c_row = spn;
            // The persistent kernel (all steps in one launch) or the fused step (one a step): h alternates between
            // the state's h and h_new.
            bool persistent = persistent_forward, fused = false;
            const char *fused_declined = "it computes in float only", *wgmma_declined = fused_declined;
            if constexpr (std::is_same_v<C, float>) {
                if (places.projection >= 0) fused_declined = "it takes no projection";
                fused = !persistent && places.projection < 0 &&
                        rnn_fused_step_applies(p, recurrent.b, at.state, spn, &fused_declined);
                if (persistent)
                    LIBREDNN_CHECK(rnn_persistent_forward(stream, cell, recurrent.b, recurrent.bias, max_length));
                if (fused)  // all the steps in one launch where the device holds the whole grid
                    LIBREDNN_CHECK(rnn_fused_steps_persistent_forward(stream, cell, recurrent.b, recurrent.bias,
                                                                      max_length, p.net.math_type != CUDNN_FMA_MATH,
                                                                      &persistent, &wgmma_declined));
            }
            rnn_log_steps(
                p, p.training ? "RNN training forward steps" : "RNN inference steps", pl,
                {{"wavefront kernel, every layer's steps in one cooperative launch", wavefront_declined},
                 {"persistent kernel", persistent_forward ? nullptr : persistent_declined},
                 {"fused step on wgmma, all steps in one cooperative launch", fused ? wgmma_declined : fused_declined},
                 {persistent ? "fused step, all steps in one cooperative launch" : "fused step, a launch a step",
                  fused ? nullptr : fused_declined},
                 {"a product and a cell kernel a step", nullptr}});
            for (int s = 0; s < max_length && !persistent; ++s) {
                cell.s = s;
                if constexpr (std::is_same_v<C, float>) {
                    if (fused) {
                        const int64_t h_in = s % 2 == 0 ? state.h : state.h_new;
                        const int64_t h_out = s % 2 == 0 ? state.h_new : state.h;
                        LIBREDNN_CHECK(rnn_fused_step_forward(stream, cell, recurrent.b, recurrent.bias, h_in, h_out,
                                                              p.net.math_type != CUDNN_FMA_MATH));
                        continue;
                    }
                }
                LIBREDNN_CHECK(rnn_product(stream, p, RnnProductScope::one_step, RnnProductShape::forward, recurrent));
                cell_forward_kernel<C><<<rnn_grid(int64_t{N} * H), kRnnBlock, 0, stream>>>(cell);
                LIBREDNN_CHECK(check_launch("cell_forward_kernel"));
                if (places.projection >= 0) {
                    LIBREDNN_CHECK(
                        rnn_product(stream, p, RnnProductScope::one_step, RnnProductShape::forward, projection));
                    take_projected_kernel<C><<<rnn_grid(int64_t{N} * P), kRnnBlock, 0, stream>>>(cell);
                    LIBREDNN_CHECK(check_launch("take_projected_kernel"));
                }
            }
            const int64_t h_last = (persistent || fused) && max_length % 2 == 1 ? state.h_new : state.h;
            LIBREDNN_CHECK((store_layer_state<T, C>(stream, p, b, pl, state, at.state, spn, h_last)));
        }
        if constexpr (std::is_same_v<C, float>) {
            if (wavefront) {  // every layer's steps, and the last layer's outputs in `out`
                LIBREDNN_CHECK(wavefront_steps<T>(stream, p, b, at, state, out, max_length));
                break;
            }
        }
        in = out;
        if (p.dropout_between_layers() && layer + 1 < net.layers) {
            const C scale = std::is_same<C, double>::value ? static_cast<C>(dropout_scale_double(p.dropout))
                                                           : static_cast<C>(dropout_scale_float(p.dropout));
            dropout_between_layers_kernel<C><<<rnn_grid(steps * Y), kRnnBlock, 0, stream>>>(
                static_cast<const DropoutState *>(b.dropout_states), dropout_threshold(p.dropout), scale, layer,
                p.max_seq_length, N, Y, out, reserve + rnn_reserve_dropout_start(p) + steps * Y * layer, at.sequence_b);
            LIBREDNN_CHECK(check_launch("dropout_between_layers_kernel"));
            in = at.sequence_b;
        }
    }
    if (p.dropout_between_layers()) {
        count_rnn_dropout_call<<<1, 1, 0, stream>>>(static_cast<DropoutState *>(b.dropout_states));
        LIBREDNN_CHECK(check_launch("count_rnn_dropout_call"));
    }
    rnn_store_sequences_kernel<T, C><<<rnn_grid(steps * Y), kRnnBlock, 0, stream>>>(
        out, Y, at.rows, at.lengths, N, steps, Y, static_cast<C>(p.padding_fill), static_cast<T *>(b.y));
    return check_launch("rnn_store_sequences_kernel");
}

}  // namespace

Status rnn_forward_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    switch (p.net.data_type) {
        case CUDNN_DATA_HALF: return forward<__half, float>(stream, p, b, workspace);
        case CUDNN_DATA_FLOAT: return forward<float, float>(stream, p, b, workspace);
        default: return forward<double, double>(stream, p, b, workspace);
    }
}

}  // namespace librednn::cuda
