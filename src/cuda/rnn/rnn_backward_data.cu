// The CUDA RNN backward data pass (cudnnRNNBackwardData_v8; cuda/rnn/rnn.hpp): back-propagation through
// time from the last layer down, one step at a time over the whole batch. Per step: dh gains the layer
// output's gradient, P^T dh is the unprojected h's gradient (a product), the cell's gradients come from
// the reserve space (a kernel; the GRU's R_h h + b_Rh is recomputed by a product first), and R^T times
// the recurrent gate gradients is the previous h's (a product). After the last step, W^T times every
// step's input gate gradients is the layer input's gradient, in one product. The gate gradients stay in
// the reserve space for the backward weights pass. Dropout between layers multiplies the gradient reaching a
// layer's output from the layer above by the forward's factors; LSTM cell clipping stops the gradient at a
// clipped c. Small batches take all the steps of a pseudo-layer in one persistent kernel (rnn_persistent.hpp),
// batches of 17 to 64 two launches a step on the split product (rnn_split_product.hpp).
#include "cuda/rnn/rnn_cell_backward.cuh"
#include "cuda/rnn/rnn_cluster_backward.hpp"
#include "cuda/rnn/rnn_kernels.cuh"
#include "cuda/rnn/rnn_persistent.hpp"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_products.hpp"
#include "cuda/rnn/rnn_split_product.hpp"

#include <algorithm>
#include <type_traits>

namespace librednn::cuda {

namespace {

// dh += the layer output's gradient at step s; with the projection, dh is also kept for backward weights.
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock) take_output_gradient_kernel(const __grid_constant__ CellBackward<T, C> a) {
    const int64_t total = static_cast<int64_t>(a.N) * a.P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / a.P), i = static_cast<int>(e % a.P);
        const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
        if (t < 0) continue;
        const int64_t row = static_cast<int64_t>(t) * a.N + n;
        C &dh = a.state[n * a.spn + a.at.dh + i];
        dh += a.dout[row * a.out_row + static_cast<int64_t>(a.dir) * a.P + i];
        if (a.projection) {
            const int gates = 4;
            a.grads[row * a.grads_row + 2 * gates * a.H + i] = dh;
        }
    }
}

// The GRU's previous h at step s (hx, or zeros, before the first).
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock) gather_previous_h_kernel(const __grid_constant__ CellBackward<T, C> a) {
    const int64_t total = static_cast<int64_t>(a.N) * a.P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / a.P), i = static_cast<int>(e % a.P);
        const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
        if (t < 0) continue;
        a.state[n * a.spn + a.at.h_prev + i] = rnn_previous_h(a, n, i, t, a.s == 0);
    }
}

template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock) cell_backward_kernel(const __grid_constant__ CellBackward<T, C> a) {
    const int64_t total = static_cast<int64_t>(a.N) * a.H;
    const int H = a.H;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / H), i = static_cast<int>(e % H);
        const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
        if (t < 0) continue;
        C *st = a.state + n * a.spn;
        const bool gru = a.cell == CUDNN_GRU;
        rnn_cell_backward_unit(a, n, i, a.s, t, a.projection ? st[a.at.dfull + i] : st[a.at.dh + i],
                               st + a.at.gate_grads, gru ? st[a.at.h_prev + i] : C(0), gru ? st[a.at.pre_h + i] : C(0));
    }
}

// dh for the step before: R^T times the recurrent gate gradients (+ z * dh for the GRU).
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    take_previous_gradient_kernel(const __grid_constant__ CellBackward<T, C> a) {
    const int64_t total = static_cast<int64_t>(a.N) * a.P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / a.P), i = static_cast<int>(e % a.P);
        if (rnn_step_time(a.lengths, n, a.dir, a.s) < 0) continue;
        C *st = a.state + n * a.spn;
        st[a.at.dh + i] = st[a.at.dprev + i] + (a.cell == CUDNN_GRU ? st[a.at.z_dh + i] : C(0));
    }
}

// Unit i of sequence n's share of R^T dG: the split product's parts (rnn_split_product.hpp) added in split order.
__device__ __forceinline__ float split_sum(const float *parts, int splits, int N, int P, int n, int i) {
    const int64_t stride = static_cast<int64_t>(N) * P;
    const float *part = parts + static_cast<int64_t>(n) * P + i;
    float sum = part[0];
#pragma unroll 8
    for (int q = 1; q < splits; ++q) sum += part[q * stride];  // the loads in flight together, the adds in order
    return sum;
}

// A step of the split product's recurrence (rnn_split_product.hpp): dh is the layer output's gradient plus, past
// the sequence's first step back, the parts of the step after's R^T dG and the GRU's z * dh (before it, the
// state's dh: dhy). The GRU's previous h and R_h h + b_Rh come from the buffers of every step.
template <class T>
__global__ void __launch_bounds__(kRnnBlock)
    cell_backward_split_kernel(const __grid_constant__ CellBackward<T, float> a, const float *parts, int splits,
                               const float *previous_h, const float *pre_h) {
    const int64_t total = static_cast<int64_t>(a.N) * a.H;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / a.H), i = static_cast<int>(e % a.H);
        const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
        if (t < 0) continue;
        float *st = a.state + n * a.spn;
        const int64_t row = static_cast<int64_t>(t) * a.N + n;
        float dh = a.s + 1 < a.lengths[n]
                       ? split_sum(parts, splits, a.N, a.P, n, i) + (a.cell == CUDNN_GRU ? st[a.at.z_dh + i] : 0.0f)
                       : st[a.at.dh + i];
        dh += a.dout[row * a.out_row + static_cast<int64_t>(a.dir) * a.P + i];
        const bool gru = a.cell == CUDNN_GRU;
        rnn_cell_backward_unit(a, n, i, a.s, t, dh, st + a.at.gate_grads, gru ? previous_h[row * a.P + i] : 0.0f,
                               gru ? pre_h[row * a.H + i] : 0.0f);
    }
}

// After the split product's last step: dh for hx, from the parts of step 0 (and the GRU's z * dh).
template <class T>
__global__ void __launch_bounds__(kRnnBlock)
    take_split_gradient_kernel(const __grid_constant__ CellBackward<T, float> a, const float *parts, int splits) {
    const int64_t total = static_cast<int64_t>(a.N) * a.P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int n = static_cast<int>(e / a.P), i = static_cast<int>(e % a.P);
        if (a.lengths[n] <= 0) continue;  // no step: dh is still dhy
        float *st = a.state + n * a.spn;
        st[a.at.dh + i] = split_sum(parts, splits, a.N, a.P, n, i) + (a.cell == CUDNN_GRU ? st[a.at.z_dh + i] : 0.0f);
    }
}

// All the steps of a pseudo-layer on the split product, two launches a step: the cells, then R^T times their
// recurrent gate gradients into the parts (the first step's only where dhx is asked for).
template <class T>
Status backward_split_steps(cudaStream_t stream, CellBackward<T, float> cell, const RnnSplitProduct &plan,
                            const float *recurrent, const float *previous_h, const float *pre_h, float *parts,
                            int max_length, bool want_dhx) {
    const int gH = rnn_cell_gates(cell.cell) * cell.H;
    const int grid_h = rnn_grid(int64_t{cell.N} * cell.H);
    for (int s = max_length - 1; s >= 0; --s) {
        cell.s = s;
        cell_backward_split_kernel<T><<<grid_h, kRnnBlock, 0, stream>>>(cell, parts, plan.splits, previous_h, pre_h);
        LIBREDNN_CHECK(check_launch("cell_backward_split_kernel"));
        if (s > 0 || want_dhx)
            LIBREDNN_CHECK(rnn_split_product(stream, plan, cell.state + cell.at.gate_grads, cell.spn, recurrent, cell.N,
                                             cell.P, gH, parts));
    }
    if (!want_dhx) return CUDNN_STATUS_SUCCESS;
    take_split_gradient_kernel<T>
        <<<rnn_grid(int64_t{cell.N} * cell.P), kRnnBlock, 0, stream>>>(cell, parts, plan.splits);
    return check_launch("take_split_gradient_kernel");
}

// CUDNN_SKIP_INPUT: the layer input's gradient is the sum of the gates' input gradients.
template <class C>
__global__ void __launch_bounds__(kRnnBlock)
    skip_input_gradient_kernel(const C *grads, int64_t grads_row, int64_t steps, int H, int gates, bool accumulate,
                               C *din) {
    const int64_t total = steps * H;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t row = e / H;
        const int i = static_cast<int>(e % H);
        C sum = 0;
        for (int k = 0; k < gates; ++k) sum += grads[row * grads_row + k * H + i];
        din[e] = accumulate ? din[e] + sum : sum;
    }
}

template <class T, class C>
Status backward_data(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    const RnnNetwork &net = p.net;
    const int g = net.gates(), H = net.hidden_size, P = net.proj_size, N = p.batch_size, Y = p.y_size();
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * N, gH = static_cast<int64_t>(g) * H;
    RnnWorkspacePointers<C> at = rnn_workspace_pointers<C>(p, workspace);
    const int64_t spn = at.state_per_sequence;
    const BackwardState state = backward_state(net);
    LIBREDNN_CHECK(rnn_upload_tables(stream, p, at.lengths, at.rows));
    LIBREDNN_CHECK(rnn_pass_weights<T>(stream, b.weights, rnn_weight_elements(net),
                                       rnn_reads_weights_in_place(p, b.weights), &at.weights));
    C *dout = at.sequence_b, *din = at.sequence_a;
    rnn_load_sequences_kernel<T, C><<<rnn_grid(steps * Y), kRnnBlock, 0, stream>>>(
        static_cast<const T *>(b.dy), at.rows, at.lengths, N, steps, Y, dout);
    LIBREDNN_CHECK(check_launch("rnn_load_sequences_kernel"));
    C *reserve = static_cast<C *>(b.reserve);
    const int64_t forward_block = rnn_reserve_forward_block(net), gradient_block = rnn_reserve_gradient_block(net);
    const int64_t outputs_start = steps * forward_block * net.pseudo_layers();
    C *gradients = reserve + rnn_reserve_gradient_start(p);
    if (rnn_has_short_sequences(p)) {
        // The steps beyond a sequence are never written; backward weights' products read zeros there.
        const size_t bytes = sizeof(C) * static_cast<size_t>(steps * gradient_block * net.pseudo_layers());
        cudaError_t error = cudaMemsetAsync(gradients, 0, bytes, stream);
        // And the GRU's rounded gate gradients, so that W^T dG reads zeros there too.
        if (error == cudaSuccess && at.rounded != nullptr)
            error = cudaMemsetAsync(at.rounded, 0, sizeof(C) * static_cast<size_t>(steps * gH), stream);
        if (error != cudaSuccess)
            return fail(CUDNN_STATUS_EXECUTION_FAILED, "clearing the RNN reserve space failed: %s",
                        cudaGetErrorString(error));
    }
    const int max_length = *std::max_element(p.seq_lengths.begin(), p.seq_lengths.end());
    // How the steps run, the same for every pseudo-layer: all in one persistent launch (batches up to 16,
    // rnn_persistent.hpp), two launches a step on the split product (17 to 64, rnn_split_product.hpp; each layer's R
    // must also be aligned), or the unfused steps.
    bool persistent = false, cluster_planned = false, split_planned = false;
    RnnSplitProduct plan;
    // The log's reasons (rnn_log_steps).
    const char *persistent_declined = "it computes in float only", *cluster_declined = "it computes in float only",
               *split_declined = "it computes in float only";
    if constexpr (std::is_same_v<C, float>) {
        persistent = rnn_persistent_backward_data_applies(p, at.split_elements, &persistent_declined);
        cluster_planned = !persistent && rnn_cluster_backward_applies(p, at.split_elements, &cluster_declined);
        if (cluster_planned && !aligned16(at.split)) {
            cluster_planned = false;
            cluster_declined = "the workspace is not 16-byte aligned";
        }
        split_planned = !persistent && rnn_split_product_plan(p, at.split_elements, &plan, &split_declined);
    }
    const T *dhy = static_cast<const T *>(b.dhy), *dcy = static_cast<const T *>(b.dcy);
    T *dhx = static_cast<T *>(b.dhx), *dcx = static_cast<T *>(b.dcx);
    for (int layer = net.layers - 1; layer >= 0; --layer) {
        for (int dir = 0; dir < net.directions(); ++dir) {
            const int pl = layer * net.directions() + dir;
            const RnnLayerPlaces places = rnn_layer_places(net, pl);
            const int width = places.width;
            const int64_t state_offset = static_cast<int64_t>(pl) * N;
            C *grads = gradients + pl * steps * gradient_block;
            rnn_load_state_kernel<T, C><<<rnn_grid(int64_t{N} * P), kRnnBlock, 0, stream>>>(
                dhy ? dhy + state_offset * P : nullptr, int64_t{N} * P, at.state + state.dh, spn, P);
            LIBREDNN_CHECK(check_launch("rnn_load_state_kernel"));
            if (net.cell == CUDNN_LSTM) {
                rnn_load_state_kernel<T, C><<<rnn_grid(int64_t{N} * H), kRnnBlock, 0, stream>>>(
                    dcy ? dcy + state_offset * H : nullptr, int64_t{N} * H, at.state + state.dc, spn, H);
                LIBREDNN_CHECK(check_launch("rnn_load_state_kernel"));
            }
            CellBackward<T, C> cell{};
            cell.lengths = at.lengths, cell.N = N, cell.H = H, cell.P = P, cell.cell = static_cast<int>(net.cell);
            cell.dir = dir, cell.projection = net.projection() ? 1 : 0, cell.spn = spn, cell.at = state;
            cell.clip = p.clipping ? 1 : 0, cell.lclip = static_cast<C>(p.lclip), cell.rclip = static_cast<C>(p.rclip);
            cell.state = at.state, cell.dout = dout, cell.out_row = Y;
            cell.outputs = reserve + outputs_start + steps * Y * layer;
            cell.saved = reserve + pl * steps * forward_block, cell.saved_row = forward_block;
            cell.grads = grads, cell.grads_row = gradient_block;
            // W^T dG's gate gradients rounded to TF32 by the cells where it runs on the tensor memory accelerator's
            // kernel: gr in place for the cells other than the GRU (equal to gw there), the GRU's own piece.
            const C *rounded_grads = nullptr;
            int64_t rounded_row = 0;
            if (std::is_same_v<C, float> && places.input_matrices >= 0 && rnn_tf32_input_gradient(p, width)) {
                if (net.cell != CUDNN_GRU)
                    cell.round_recurrent = 1, rounded_grads = grads + gH, rounded_row = gradient_block;
                else if (at.rounded != nullptr)
                    cell.rounded = at.rounded, rounded_grads = at.rounded, rounded_row = gH;
            }
            cell.hx = b.hx ? static_cast<const T *>(b.hx) + state_offset * P : nullptr;
            cell.cx = b.cx ? static_cast<const T *>(b.cx) + state_offset * H : nullptr;

            GemmOperands<C> unproject;  // d(unprojected h) = P^T dh

            unproject.scratch = at.split, unproject.scratch_elements = at.split_elements;
            unproject.m = N, unproject.n = H, unproject.k = P;
            unproject.a = at.state + state.dh, unproject.a_row = spn, unproject.a_col = 1;
            unproject.b = at.weights + places.projection, unproject.b_row = H, unproject.b_col = 1;
            unproject.c = at.state + state.dfull, unproject.c_row = spn;
            GemmOperands<C> reset_product;  // the GRU's R_h h + b_Rh
            reset_product.scratch = at.split, reset_product.scratch_elements = at.split_elements;
            reset_product.m = N, reset_product.n = H, reset_product.k = P;
            reset_product.a = at.state + state.h_prev, reset_product.a_row = spn, reset_product.a_col = 1;
            reset_product.b = at.weights + places.recurrent_matrices + 2 * static_cast<int64_t>(H) * P;
            reset_product.b_row = 1, reset_product.b_col = P;
            reset_product.c = at.state + state.pre_h, reset_product.c_row = spn;
            reset_product.bias = places.recurrent_biases >= 0 ? at.weights + places.recurrent_biases + 2 * H : nullptr;
            GemmOperands<C> previous;  // R^T times the recurrent gate gradients
            previous.scratch = at.split, previous.scratch_elements = at.split_elements;
            previous.m = N, previous.n = P, previous.k = gH;
            previous.a = at.state + state.gate_grads, previous.a_row = spn, previous.a_col = 1;
            previous.b = at.weights + places.recurrent_matrices, previous.b_row = P, previous.b_col = 1;
            previous.c = at.state + state.dprev, previous.c_row = spn;
            const int grid_p = rnn_grid(int64_t{N} * P), grid_h = rnn_grid(int64_t{N} * H);
            // The persistent kernel and the split product both take the GRU's R_h h + b_Rh of every step first in
            // one product (into the workspace's W x piece, unused by this pass).
            bool cluster = false, split = false;
            if constexpr (std::is_same_v<C, float>) {
                const C *recurrent = at.weights + places.recurrent_matrices;
                split = split_planned && rnn_split_product_aligned(at.state + state.gate_grads, spn, recurrent);
                if (split_planned && !split) split_declined = "the gate gradients or R are not 16-byte aligned";
                C *previous_h = nullptr, *pre_h = nullptr;
                if ((persistent || cluster_planned || split) && net.cell == CUDNN_GRU) {
                    previous_h = at.gates;
                    pre_h = at.gates + steps * P;
                    rnn_gather_all_previous_h_kernel<T, C><<<rnn_grid(steps * P), kRnnBlock, 0, stream>>>(
                        at.lengths, N, steps, P, dir, cell.outputs, Y, cell.hx, previous_h);
                    LIBREDNN_CHECK(check_launch("rnn_gather_all_previous_h_kernel"));
                    GemmOperands<C> all_steps = reset_product;
                    all_steps.m = steps;
                    all_steps.a = previous_h, all_steps.a_row = P;
                    all_steps.c = pre_h, all_steps.c_row = H;
                    LIBREDNN_CHECK(
                        rnn_product(stream, p, RnnProductScope::all_steps, RnnProductShape::forward, all_steps));
                }
                if (persistent)
                    LIBREDNN_CHECK(rnn_persistent_backward_data(stream, cell, recurrent, pre_h, at.split, max_length));
                if (cluster_planned) {
                    LIBREDNN_CHECK(rnn_cluster_backward_data(stream, cell, recurrent, pre_h, at.split, max_length,
                                                             dhx != nullptr, &cluster));
                    if (!cluster) cluster_declined = "the driver refused its launch";
                }
                if (cluster) split = false;
                if (split)
                    LIBREDNN_CHECK(backward_split_steps(stream, cell, plan, recurrent, previous_h, pre_h, at.split,
                                                        max_length, dhx != nullptr));
            }
            rnn_log_steps(p, "RNN backward-data steps", pl,
                          {{"persistent kernel", persistent ? nullptr : persistent_declined},
                           {"clusters, one launch", cluster ? nullptr : cluster_declined},
                           {"split product, two launches a step", split ? nullptr : split_declined},
                           {"a cell kernel and products a step", nullptr}});
            for (int s = max_length - 1; s >= 0 && !persistent && !cluster && !split; --s) {
                cell.s = s;
                take_output_gradient_kernel<T, C><<<grid_p, kRnnBlock, 0, stream>>>(cell);
                LIBREDNN_CHECK(check_launch("take_output_gradient_kernel"));
                if (places.projection >= 0)
                    LIBREDNN_CHECK(
                        rnn_product(stream, p, RnnProductScope::one_step, RnnProductShape::backward_data, unproject));
                if (net.cell == CUDNN_GRU) {
                    gather_previous_h_kernel<T, C><<<grid_p, kRnnBlock, 0, stream>>>(cell);
                    LIBREDNN_CHECK(check_launch("gather_previous_h_kernel"));
                    LIBREDNN_CHECK(
                        rnn_product(stream, p, RnnProductScope::one_step, RnnProductShape::forward, reset_product));
                }
                cell_backward_kernel<T, C><<<grid_h, kRnnBlock, 0, stream>>>(cell);
                LIBREDNN_CHECK(check_launch("cell_backward_kernel"));
                LIBREDNN_CHECK(
                    rnn_product(stream, p, RnnProductScope::one_step, RnnProductShape::backward_data, previous));
                take_previous_gradient_kernel<T, C><<<grid_p, kRnnBlock, 0, stream>>>(cell);
                LIBREDNN_CHECK(check_launch("take_previous_gradient_kernel"));
            }
            if (dhx) {
                rnn_store_state_kernel<T, C><<<grid_p, kRnnBlock, 0, stream>>>(at.state + state.dh, spn, P,
                                                                               int64_t{N} * P, dhx + state_offset * P);
                LIBREDNN_CHECK(check_launch("rnn_store_state_kernel"));
            }
            if (dcx && net.cell == CUDNN_LSTM) {
                rnn_store_state_kernel<T, C><<<grid_h, kRnnBlock, 0, stream>>>(at.state + state.dc, spn, H,
                                                                               int64_t{N} * H, dcx + state_offset * H);
                LIBREDNN_CHECK(check_launch("rnn_store_state_kernel"));
            }
            // The layer input's gradient: W^T times every step's input gate gradients, both directions summed.
            if (places.input_matrices >= 0) {
                GemmOperands<C> input;
                input.scratch = at.split, input.scratch_elements = at.split_elements;
                input.m = steps, input.n = width, input.k = gH;
                input.a = grads, input.a_row = gradient_block, input.a_col = 1;
                input.b = at.weights + places.input_matrices, input.b_row = width, input.b_col = 1;
                input.c = din, input.c_row = width, input.accumulate = dir > 0;
                if constexpr (std::is_same_v<C, float>) {
                    if (rounded_grads != nullptr) {
                        // Times W turned K-major and rounded into the gates piece (the GRU's steps are done with it).
                        LIBREDNN_CHECK(
                            rnn_turn_tf32(stream, at.weights + places.input_matrices, gH, width, width, at.gates, gH));
                        input.a = rounded_grads, input.a_row = rounded_row;
                        input.b = at.gates, input.b_row = 1, input.b_col = gH;
                        input.tf32_rounded = true;
                    }
                }
                LIBREDNN_CHECK(
                    rnn_product(stream, p, RnnProductScope::all_steps, RnnProductShape::backward_data, input));
            } else {
                skip_input_gradient_kernel<C>
                    <<<rnn_grid(steps * H), kRnnBlock, 0, stream>>>(grads, gradient_block, steps, H, g, dir > 0, din);
                LIBREDNN_CHECK(check_launch("skip_input_gradient_kernel"));
            }
        }
        if (layer > 0 && p.dropout_between_layers()) {
            // Through the forward's dropout of the layer below's output.
            const C *factors = reserve + rnn_reserve_dropout_start(p) + steps * Y * (layer - 1);
            rnn_apply_dropout_kernel<C><<<rnn_grid(steps * Y), kRnnBlock, 0, stream>>>(din, factors, steps * Y, din);
            LIBREDNN_CHECK(check_launch("rnn_apply_dropout_kernel"));
        }
        std::swap(dout, din);  // this layer's input gradient is the output gradient of the layer below
    }
    rnn_store_sequences_kernel<T, C><<<rnn_grid(steps * net.input_size), kRnnBlock, 0, stream>>>(
        dout, net.input_size, at.rows, at.lengths, N, steps, net.input_size, C(0), static_cast<T *>(b.dx));
    return check_launch("rnn_store_sequences_kernel");
}

}  // namespace

Status rnn_backward_data_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    switch (p.net.data_type) {
        case CUDNN_DATA_HALF: return backward_data<__half, float>(stream, p, b, workspace);
        case CUDNN_DATA_FLOAT: return backward_data<float, float>(stream, p, b, workspace);
        default: return backward_data<double, double>(stream, p, b, workspace);
    }
}

}  // namespace librednn::cuda
