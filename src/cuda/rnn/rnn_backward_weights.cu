// The CUDA RNN backward weights pass (cudnnRNNBackwardWeights_v8; cuda/rnn/rnn.hpp). Every gradient is one
// product over all time steps of the gate gradients backward data left in the reserve space: W's with the
// layer inputs, R's with each step's previous h (gathered first), P's with the unprojected h (a layer above the
// first reads its input through the forward's dropout factors); each bias's is a column sum of the gate gradients. Sums
// go to the workspace in the compute type, then add into (or replace) the caller's gradients.
#include "cuda/rnn/rnn_kernels.cuh"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_products.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

// The bias gradients: the gate gradients' column sums over every (t, n). Block (a tile of 128 columns, a split of
// the rows): its eight warps take every eighth row, a lane four columns 32 apart (coalesced), and their sums meet
// in warp order. With one split the sums are final; else each split leaves its part and bias_sum_kernel adds the
// parts in split order: deterministic either way. Column c < `first_columns` goes to first[c], the rest to
// second[c - first_columns] (the input and recurrent biases, whose gradients lie side by side in a row).
constexpr int kBiasThreads = 256, kBiasWarps = kBiasThreads / 32, kBiasColumns = 128;

template <class C>
__device__ __forceinline__ void store_bias(C *first, C *second, int first_columns, int c, C value) {
    if (c < first_columns)
        first[c] = value;
    else
        second[c - first_columns] = value;
}

template <class C>
__global__ void __launch_bounds__(kBiasThreads)
    bias_parts_kernel(const C *grads, int64_t grads_row, int64_t rows, int columns, int64_t rows_per_split, C *parts,
                      C *first, C *second, int first_columns) {
    __shared__ C warp_sums[kBiasWarps][kBiasColumns];
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
    const int c0 = static_cast<int>(blockIdx.x) * kBiasColumns;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * rows_per_split, r1 = min(rows, r0 + rows_per_split);
    C sum[kBiasColumns / 32] = {};
    for (int64_t r = r0 + warp; r < r1; r += kBiasWarps) {
        const C *row = grads + r * grads_row;
#pragma unroll
        for (int q = 0; q < kBiasColumns / 32; ++q)
            if (c0 + lane + 32 * q < columns) sum[q] += row[c0 + lane + 32 * q];
    }
#pragma unroll
    for (int q = 0; q < kBiasColumns / 32; ++q) warp_sums[warp][lane + 32 * q] = sum[q];
    __syncthreads();
    const int c = c0 + static_cast<int>(threadIdx.x);
    if (threadIdx.x >= kBiasColumns || c >= columns) return;
    C total = warp_sums[0][threadIdx.x];
    for (int w = 1; w < kBiasWarps; ++w) total += warp_sums[w][threadIdx.x];
    if (gridDim.y == 1)
        store_bias(first, second, first_columns, c, total);
    else
        parts[blockIdx.y * static_cast<int64_t>(columns) + c] = total;
}

template <class C>
__global__ void __launch_bounds__(kRnnBlock)
    bias_sum_kernel(const C *parts, int splits, int columns, C *first, C *second, int first_columns) {
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c >= columns) return;
    C total = parts[c];
    for (int q = 1; q < splits; ++q) total += parts[static_cast<int64_t>(q) * columns + c];
    store_bias(first, second, first_columns, c, total);
}

// Queues the bias gradients of `columns` gate-gradient columns (rows of grads_row, `rows` of them), split over
// rows where the column tiles alone would leave SMs idle and `scratch` holds the parts.
template <class C>
Status bias_gradients(cudaStream_t stream, const C *grads, int64_t grads_row, int64_t rows, int columns, C *first,
                      C *second, int first_columns, C *scratch, int64_t scratch_elements) {
    const int tiles = (columns + kBiasColumns - 1) / kBiasColumns;
    const int64_t wanted = (2 * current_device_limits().sm_count + tiles - 1) / tiles;
    int splits = static_cast<int>(std::min<int64_t>({wanted, (rows + 63) / 64, scratch_elements / columns}));
    splits = std::max(splits, 1);
    const int64_t rows_per_split = (rows + splits - 1) / splits;
    splits = static_cast<int>((rows + rows_per_split - 1) / rows_per_split);
    bias_parts_kernel<C>
        <<<dim3(static_cast<unsigned>(tiles), static_cast<unsigned>(splits)), kBiasThreads, 0, stream>>>(
            grads, grads_row, rows, columns, rows_per_split, scratch, first, second, first_columns);
    LIBREDNN_CHECK(check_launch("bias_parts_kernel"));
    if (splits == 1) return CUDNN_STATUS_SUCCESS;
    bias_sum_kernel<C><<<(columns + kRnnBlock - 1) / kRnnBlock, kRnnBlock, 0, stream>>>(scratch, splits, columns, first,
                                                                                        second, first_columns);
    return check_launch("bias_sum_kernel");
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
    const C *reserve = static_cast<const C *>(b.reserve);
    const int64_t forward_block = rnn_reserve_forward_block(net), gradient_block = rnn_reserve_gradient_block(net);
    const int64_t outputs_start = steps * forward_block * net.pseudo_layers();
    const C *gradients = reserve + rnn_reserve_gradient_start(p);
    C *sums = at.weights;
    // The bias sums' parts: the step scratch, or above batch 64 (none) the per-sequence state, unused by this pass.
    C *parts = at.split_elements > 0 ? at.split : at.state;
    const int64_t parts_elements = at.split_elements > 0 ? at.split_elements : at.state_elements;
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
        rnn_gather_all_previous_h_kernel<T, C><<<rnn_grid(steps * P), kRnnBlock, 0, stream>>>(
            at.lengths, N, steps, P, dir, reserve + outputs_start + steps * Y * layer, Y, hx, at.gates);
        LIBREDNN_CHECK(check_launch("rnn_gather_all_previous_h_kernel"));
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
        // Bias gradients: the column sums of the gate gradients, both biases' in one pass where both are present
        // (the input side's gradients, then the recurrent side's, lie side by side in a row).
        const bool input_bias = places.input_biases >= 0, recurrent_bias = places.recurrent_biases >= 0;
        if (input_bias || recurrent_bias) {
            const int columns = static_cast<int>((input_bias && recurrent_bias ? 2 : 1) * gH);
            C *first = sums + (input_bias ? places.input_biases : places.recurrent_biases);
            C *second = recurrent_bias ? sums + places.recurrent_biases : first;
            LIBREDNN_CHECK(bias_gradients<C>(stream, input_bias ? grads : grads + gH, gradient_block, steps, columns,
                                             first, second, input_bias ? static_cast<int>(gH) : columns, parts,
                                             parts_elements));
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
