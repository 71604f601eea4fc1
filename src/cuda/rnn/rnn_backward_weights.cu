// The CUDA RNN backward weights pass (cudnnRNNBackwardWeights_v8; cuda/rnn/rnn.hpp). Every gradient is one
// product over all time steps of the gate gradients backward data left in the reserve space: W's with the
// layer inputs, R's with each step's previous h (gathered first), P's with the unprojected h, and each
// bias's with a column of ones (a layer above the first reads its input through the forward's dropout
// factors). Sums go to the workspace in the compute type, then add into (or replace)
// the caller's gradients.
#include "cuda/rnn/rnn_kernels.cuh"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_products.hpp"

namespace librednn::cuda {

namespace {

// Every step's previous h for pseudo-layer `dir` of a layer: the layer output one step before in the
// recurrence's order, hx (or zeros) at its first step, zeros beyond the sequence.
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    gather_all_previous_h_kernel(const int *lengths, int N, int64_t steps, int P, int dir, const C *outputs,
                                 int64_t out_row, const T *hx, C *h_prev) {
    const int64_t total = steps * P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t row = e / P;
        const int i = static_cast<int>(e % P);
        const int t = static_cast<int>(row / N), n = static_cast<int>(row % N);
        const int length = lengths[n];
        C v = C(0);
        if (t < length) {
            const bool first = dir == 0 ? t == 0 : t == length - 1;
            if (first) {
                v = hx ? to_compute<C>(hx[static_cast<int64_t>(n) * P + i]) : C(0);
            } else {
                const int previous = dir == 0 ? t - 1 : t + 1;
                v = outputs[(static_cast<int64_t>(previous) * N + n) * out_row + static_cast<int64_t>(dir) * P + i];
            }
        }
        h_prev[e] = v;
    }
}

template <class C>
__global__ void fill_one_kernel(C *at) {
    *at = C(1);
}

template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock) finish_gradients_kernel(const C *sums, int64_t count, bool add, T *dw) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        dw[e] = from_compute<T>(add ? to_compute<C>(dw[e]) + sums[e] : sums[e]);
}

template <class T, class C>
Status backward_weights(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    const RnnNetwork &net = p.net;
    const int g = net.gates(), H = net.hidden_size, P = net.proj_size, N = p.batch_size, Y = p.y_size();
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * N, gH = static_cast<int64_t>(g) * H;
    const RnnWorkspacePointers<C> at = rnn_workspace_pointers<C>(p, workspace);
    LIBREDNN_CHECK(rnn_upload_tables(stream, p, at.lengths, at.rows));
    rnn_load_sequences_kernel<T, C><<<rnn_grid(steps * net.input_size), kRnnBlock, 0, stream>>>(
        static_cast<const T *>(b.x), at.rows, at.lengths, N, steps, net.input_size, at.sequence_a);
    LIBREDNN_CHECK(check_launch("rnn_load_sequences_kernel"));
    C *one = at.state;  // the column of ones the bias sums multiply by: one element, read with stride 0
    fill_one_kernel<C><<<1, 1, 0, stream>>>(one);
    LIBREDNN_CHECK(check_launch("fill_one_kernel"));
    const C *reserve = static_cast<const C *>(b.reserve);
    const int64_t forward_block = rnn_reserve_forward_block(net), gradient_block = rnn_reserve_gradient_block(net);
    const int64_t outputs_start = steps * forward_block * net.pseudo_layers();
    const C *gradients = reserve + rnn_reserve_gradient_start(p);
    C *sums = at.weights;
    for (int pl = 0; pl < net.pseudo_layers(); ++pl) {
        const int layer = pl / net.directions(), dir = pl % net.directions();
        const RnnLayerPlaces places = rnn_layer_places(net, pl);
        const int width = places.width;
        const C *grads = gradients + pl * steps * gradient_block;
        const C *input = layer == 0 ? at.sequence_a : reserve + outputs_start + steps * Y * (layer - 1);
        if (layer > 0 && p.dropout_between_layers()) {
            // The layer's input as the forward gave it: the output below times its dropout factors.
            const C *factors = reserve + rnn_reserve_dropout_start(p) + steps * Y * (layer - 1);
            rnn_apply_dropout_kernel<C>
                <<<rnn_grid(steps * Y), kRnnBlock, 0, stream>>>(input, factors, steps * Y, at.sequence_b);
            LIBREDNN_CHECK(check_launch("rnn_apply_dropout_kernel"));
            input = at.sequence_b;
        }
        const T *hx = b.hx ? static_cast<const T *>(b.hx) + static_cast<int64_t>(pl) * N * P : nullptr;
        gather_all_previous_h_kernel<T, C><<<rnn_grid(steps * P), kRnnBlock, 0, stream>>>(
            at.lengths, N, steps, P, dir, reserve + outputs_start + steps * Y * layer, Y, hx, at.gates);
        LIBREDNN_CHECK(check_launch("gather_all_previous_h_kernel"));
        // Each product: rows are a gradient's rows (gate and unit), columns the other operand's, the sum
        // over every (t, n).
        const auto weight_product = [&](const GemmOperands<C> &operands) {
            return rnn_product(stream, p, RnnProductScope::all_steps, RnnProductShape::backward_filter, operands,
                               at.products, at.product_bytes);
        };
        GemmOperands<C> product;
        product.scratch = at.split, product.scratch_elements = at.split_elements;
        product.k = steps;
        product.a_row = 1, product.a_col = gradient_block;
        product.b_col = 1;
        if (places.input_matrices >= 0) {
            product.m = gH, product.n = width, product.a = grads;
            product.b = input, product.b_row = width;
            product.c = sums + places.input_matrices, product.c_row = width;
            LIBREDNN_CHECK(weight_product(product));
        }
        product.m = gH, product.n = P, product.a = grads + gH;
        product.b = at.gates, product.b_row = P;
        product.c = sums + places.recurrent_matrices, product.c_row = P;
        LIBREDNN_CHECK(weight_product(product));
        if (places.projection >= 0) {
            product.m = P, product.n = H, product.a = grads + 2 * gH;
            product.b = reserve + pl * steps * forward_block + 5 * static_cast<int64_t>(H),
            product.b_row = forward_block;
            product.c = sums + places.projection, product.c_row = H;
            LIBREDNN_CHECK(weight_product(product));
        }
        // Bias gradients: ones^T times the gate gradients, one row.
        GemmOperands<C> bias;
        bias.scratch = at.split, bias.scratch_elements = at.split_elements;
        bias.m = 1, bias.n = gH, bias.k = steps;
        bias.a = one, bias.a_row = 0, bias.a_col = 0;
        bias.b_row = gradient_block, bias.b_col = 1;
        bias.c_row = gH;
        if (places.input_biases >= 0) {
            bias.b = grads, bias.c = sums + places.input_biases;
            LIBREDNN_CHECK(gemm_simt(stream, bias));
        }
        if (places.recurrent_biases >= 0) {
            bias.b = grads + gH, bias.c = sums + places.recurrent_biases;
            LIBREDNN_CHECK(gemm_simt(stream, bias));
        }
    }
    const int64_t count = rnn_weight_elements(net);
    finish_gradients_kernel<T, C>
        <<<rnn_grid(count), kRnnBlock, 0, stream>>>(sums, count, b.add_grad, static_cast<T *>(b.dweights));
    return check_launch("finish_gradients_kernel");
}

}  // namespace

Status rnn_backward_weights_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    switch (p.net.data_type) {
        case CUDNN_DATA_HALF: return backward_weights<__half, float>(stream, p, b, workspace);
        case CUDNN_DATA_FLOAT: return backward_weights<float, float>(stream, p, b, workspace);
        default: return backward_weights<double, double>(stream, p, b, workspace);
    }
}

}  // namespace librednn::cuda
