// The CUDA RNN backward weights pass (cudnnRNNBackwardWeights_v8; cuda/rnn/rnn.hpp). Every gradient is one
// product over all time steps of the gate gradients backward data left in the reserve space: W's with the
// layer inputs, R's with each step's previous h (gathered first), P's with the unprojected h (a layer above the
// first reads its input through the forward's dropout factors); each bias's is a column sum of the gate gradients. Sums
// go to the workspace in the compute type, then add into (or replace) the caller's gradients.
#include "cuda/common/f16_factors.hpp"
#include "cuda/common/gemm_tf32.hpp"
#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_kernels.cuh"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_products.hpp"

#include <algorithm>
#include <cstdint>
#include <type_traits>

namespace librednn::cuda {

namespace {

// The bias gradients: the gate gradients' column sums over every (t, n). Block (a tile of 128 columns, a split of
// the rows): its eight warps take every eighth row, a lane four columns 32 apart (coalesced), and their sums meet
// in warp order. With one split the sums are final; else each split leaves its part and bias_sum_kernel adds the
// parts in split order: deterministic either way. Column c < `first_columns` goes to first[c], the rest to
// second[c - first_columns] (the input and recurrent biases, whose gradients lie side by side in a row). Where
// `maxima` holds pointers (float compute), the bits of the largest magnitude of the first columns and of the rest go
// there too (as max_magnitude_kernel leaves them: backward weights' half factors, read on the way).
constexpr int kBiasThreads = 256, kBiasWarps = kBiasThreads / 32, kBiasColumns = 128;

template <class C>
__device__ __forceinline__ void store_bias(C *first, C *second, int first_columns, int c, C value) {
    if (c < first_columns)
        first[c] = value;
    else
        second[c - first_columns] = value;
}

struct BiasMaxima {
    uint32_t *first = nullptr, *second = nullptr;  // either null: not wanted
};

// A warp's largest magnitude (each lane's as float bits, which order as the values do; a NaN counts above infinity)
// into *target (zero before: atomicMax), where it is not zero.
__device__ __forceinline__ void record_maximum(uint32_t bits, uint32_t *target) {
    for (int offset = 16; offset > 0; offset /= 2) bits = max(bits, __shfl_xor_sync(0xffffffffu, bits, offset));
    if (threadIdx.x % 32 == 0 && bits > 0) atomicMax(target, bits);
}

template <class C, bool kMaxima>
__global__ void __launch_bounds__(kBiasThreads)
    bias_parts_kernel(const C *grads, int64_t grads_row, int64_t rows, int columns, int64_t rows_per_split, C *parts,
                      C *first, C *second, int first_columns, BiasMaxima maxima) {
    __shared__ C warp_sums[kBiasWarps][kBiasColumns];
    const int lane = static_cast<int>(threadIdx.x) % 32, warp = static_cast<int>(threadIdx.x) / 32;
    const int c0 = static_cast<int>(blockIdx.x) * kBiasColumns;
    const int64_t r0 = static_cast<int64_t>(blockIdx.y) * rows_per_split, r1 = min(rows, r0 + rows_per_split);
    C sum[kBiasColumns / 32] = {};
    [[maybe_unused]] uint32_t most[2] =
        {};  // kMaxima: the largest magnitudes' bits, of the first columns and of the rest
    for (int64_t r = r0 + warp; r < r1; r += kBiasWarps) {
        const C *row = grads + r * grads_row;
#pragma unroll
        for (int q = 0; q < kBiasColumns / 32; ++q) {
            const int c = c0 + lane + 32 * q;
            if (c >= columns) continue;
            const C value = row[c];
            sum[q] += value;
            if constexpr (kMaxima) {
                uint32_t &side = most[c < first_columns ? 0 : 1];
                side = max(side, __float_as_uint(fabsf(value)));
            }
        }
    }
    if constexpr (kMaxima) {
        uint32_t *const targets[2] = {maxima.first, maxima.second};
#pragma unroll
        for (int side = 0; side < 2; ++side)
            if (targets[side] != nullptr) record_maximum(most[side], targets[side]);
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

// After bias_parts_kernel: the launch's check and, with the rows split, the parts' sum.
template <class C>
Status finish_bias_parts(cudaStream_t stream, const C *parts, int splits, int columns, C *first, C *second,
                         int first_columns) {
    LIBREDNN_CHECK(check_launch("bias_parts_kernel"));
    if (splits == 1) return CUDNN_STATUS_SUCCESS;
    bias_sum_kernel<C><<<(columns + kRnnBlock - 1) / kRnnBlock, kRnnBlock, 0, stream>>>(parts, splits, columns, first,
                                                                                        second, first_columns);
    return check_launch("bias_sum_kernel");
}

// Queues the bias gradients of `columns` gate-gradient columns (rows of grads_row, `rows` of them), split over
// rows where the column tiles alone would leave SMs idle and `scratch` holds the parts.
template <class C>
Status bias_gradients(cudaStream_t stream, const C *grads, int64_t grads_row, int64_t rows, int columns, C *first,
                      C *second, int first_columns, C *scratch, int64_t scratch_elements, BiasMaxima maxima = {}) {
    const int tiles = (columns + kBiasColumns - 1) / kBiasColumns;
    const int64_t wanted = (2 * current_device_limits().sm_count + tiles - 1) / tiles;
    int splits = static_cast<int>(std::min<int64_t>({wanted, (rows + 63) / 64, scratch_elements / columns}));
    splits = std::max(splits, 1);
    const int64_t rows_per_split = (rows + splits - 1) / splits;
    splits = static_cast<int>((rows + rows_per_split - 1) / rows_per_split);
    const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(splits));
    if constexpr (std::is_same_v<C, float>) {
        if (maxima.first != nullptr) {
            bias_parts_kernel<C, true><<<grid, kBiasThreads, 0, stream>>>(
                grads, grads_row, rows, columns, rows_per_split, scratch, first, second, first_columns, maxima);
            return finish_bias_parts(stream, scratch, splits, columns, first, second, first_columns);
        }
    }
    bias_parts_kernel<C, false><<<grid, kBiasThreads, 0, stream>>>(grads, grads_row, rows, columns, rows_per_split,
                                                                   scratch, first, second, first_columns, maxima);
    return finish_bias_parts(stream, scratch, splits, columns, first, second, first_columns);
}

// The weight products' operands K-major and rounded to TF32 (float compute on tensor cores), or for half data as half
// factors scaled into half's range (f16_factors.hpp): every operand [steps][columns] as the passes hold it turns
// [columns][ld], k contiguous, so that gemm_tf32 copies it to the tensor cores untouched (its tensor memory
// accelerator's kernel). A block turns a 32 x 32 tile through shared memory, reading whole 128-byte lines. The
// sources say what element (k, c) of each operand is: DenseRows, and rnn_kernels.cuh's RnnSequenceElement and
// RnnPreviousH (which rnn_load_sequences_kernel and rnn_gather_all_previous_h_kernel copy as they are).
struct DenseRows {  // the gate gradients, or the layer below's outputs (times their dropout factors where given)
    const float *data;
    const float *factors;
    int64_t row;
    __device__ float operator()(int64_t k, int c) const {
        const int64_t at = k * row + c;
        return factors != nullptr ? data[at] * factors[at] : data[at];
    }
};

constexpr int kTurnTile = 32, kTurnRows = 8;

// A turned factor as stored: rounded to TF32, or scaled by 2^-e and rounded to half.
__device__ __forceinline__ void store_factor(float *at, float value, int) { *at = __uint_as_float(tf32_bits(value)); }
__device__ __forceinline__ void store_factor(__half *at, float value, int e) {
    *at = __float2half_rn(e > 0 ? ldexpf(value, -e) : value);
}

// `maximum`: where the bits of the source's largest magnitude lie (half factors; null: not scaled).
template <class Source, class Factor>
__global__ void __launch_bounds__(kTurnTile *kTurnRows)
    turn_kernel(Source source, int64_t steps, int columns, Factor *turned, int64_t ld, const uint32_t *maximum) {
    __shared__ float tile[kTurnTile][kTurnTile + 1];
    const int e = f16_scale_exponent_at(maximum);
    const int x = static_cast<int>(threadIdx.x) % kTurnTile, y = static_cast<int>(threadIdx.x) / kTurnTile;
    const int64_t k0 = static_cast<int64_t>(blockIdx.x) * kTurnTile;
    const int c0 = static_cast<int>(blockIdx.y) * kTurnTile;
#pragma unroll
    for (int j = 0; j < kTurnTile; j += kTurnRows) {
        const int64_t k = k0 + y + j;
        const int c = c0 + x;
        tile[y + j][x] = k < steps && c < columns ? source(k, c) : 0.0f;
    }
    __syncthreads();
#pragma unroll
    for (int j = 0; j < kTurnTile; j += kTurnRows) {
        const int c = c0 + y + j;
        const int64_t k = k0 + x;
        if (c < columns && k < steps) store_factor(&turned[c * ld + k], tile[x][y + j], e);
    }
}

// The bits of the largest |source(k, c)| into *maximum (record_maximum): a thread takes a column and, kMaxRows at a
// time (their loads in flight together), every gridDim.y-th group of rows.
constexpr int kMaxRows = 8;

template <class Source>
__global__ void __launch_bounds__(kRnnBlock)
    max_magnitude_kernel(Source source, int64_t steps, int columns, uint32_t *maximum) {
    uint32_t most = 0;
    const int c = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (c < columns) {
        for (int64_t k0 = static_cast<int64_t>(blockIdx.y) * kMaxRows; k0 < steps;
             k0 += static_cast<int64_t>(gridDim.y) * kMaxRows) {
            float v[kMaxRows];
#pragma unroll
            for (int j = 0; j < kMaxRows; ++j) v[j] = k0 + j < steps ? source(k0 + j, c) : 0.0f;
#pragma unroll
            for (int j = 0; j < kMaxRows; ++j) most = max(most, __float_as_uint(fabsf(v[j])));
        }
    }
    record_maximum(most, maximum);
}

// Turns `source` [steps][columns] into `turned` [columns][ld]. Half factors scaled by a largest magnitude (`maximum`
// not null) find it first unless `found` (the bias gradients' pass recorded it).
template <class Source, class Factor>
Status turn(cudaStream_t stream, const Source &source, int64_t steps, int columns, Factor *turned, int64_t ld,
            uint32_t *maximum = nullptr, bool found = false) {
    if (maximum != nullptr && !found) {
        // Two waves of eight blocks an SM, at most a group of rows each.
        const unsigned across = static_cast<unsigned>((columns + kRnnBlock - 1) / kRnnBlock);
        const int64_t wanted = 16 * static_cast<int64_t>(current_device_limits().sm_count) / across + 1;
        const int64_t groups = (steps + kMaxRows - 1) / kMaxRows;
        const dim3 grid(across, static_cast<unsigned>(std::min<int64_t>({groups, wanted, 65535})));
        max_magnitude_kernel<Source><<<grid, kRnnBlock, 0, stream>>>(source, steps, columns, maximum);
        LIBREDNN_CHECK(check_launch("max_magnitude_kernel"));
    }
    const dim3 grid(static_cast<unsigned>((steps + kTurnTile - 1) / kTurnTile),
                    static_cast<unsigned>((columns + kTurnTile - 1) / kTurnTile));
    turn_kernel<Source, Factor>
        <<<grid, kTurnTile * kTurnRows, 0, stream>>>(source, steps, columns, turned, ld, maximum);
    return check_launch("turn_kernel");
}

template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock) finish_gradients_kernel(const C *sums, int64_t count, bool add, T *dw) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        dw[e] = from_compute<T>(add ? to_compute<C>(dw[e]) + sums[e] : sums[e]);
}

// The same four elements a thread (float sums, 16-byte loads; the gradients' four in one load and store).
template <class T>
__global__ void __launch_bounds__(kRnnBlock)
    finish_gradients_by_four_kernel(const float4 *sums, int64_t fours, bool add, Lanes<T, 4> *dw) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < fours;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const float4 s = sums[e];
        float v[4] = {s.x, s.y, s.z, s.w};
        if (add) {
            const Lanes<T, 4> old = dw[e];
#pragma unroll
            for (int k = 0; k < 4; ++k) v[k] += to_compute<float>(old.lane[k]);
        }
        Lanes<T, 4> out;
#pragma unroll
        for (int k = 0; k < 4; ++k) out.lane[k] = from_compute<T>(v[k]);
        dw[e] = out;
    }
}

// dw = the sums (+ dw where `add`), in the data type: four at a time where both are aligned for it.
template <class T, class C>
Status finish_gradients(cudaStream_t stream, const C *sums, int64_t count, bool add, T *dw) {
    int64_t done = 0;
    if constexpr (std::is_same_v<C, float>) {
        const bool aligned =
            reinterpret_cast<uintptr_t>(sums) % 16 == 0 && reinterpret_cast<uintptr_t>(dw) % (4 * sizeof(T)) == 0;
        const int64_t fours = aligned ? count / 4 : 0;
        if (fours > 0) {
            finish_gradients_by_four_kernel<T><<<rnn_grid(fours), kRnnBlock, 0, stream>>>(
                reinterpret_cast<const float4 *>(sums), fours, add, reinterpret_cast<Lanes<T, 4> *>(dw));
            LIBREDNN_CHECK(check_launch("finish_gradients_by_four_kernel"));
            done = 4 * fours;
        }
    }
    if (done == count) return CUDNN_STATUS_SUCCESS;
    finish_gradients_kernel<T, C>
        <<<rnn_grid(count - done), kRnnBlock, 0, stream>>>(sums + done, count - done, add, dw + done);
    return check_launch("finish_gradients_kernel");
}

// The gate gradients R's product multiplies: gr (beside gw in each row) for the GRU, whose h gate differs; gw for the
// other cells, whose gr holds the same values but may be rounded to TF32 for backward data's W^T dG
// (rnn_cell_backward.cuh's round_recurrent).
template <class C>
const C *recurrent_gate_gradients(const RnnNetwork &net, const C *grads) {
    return net.cell == CUDNN_GRU ? grads + static_cast<int64_t>(net.gates()) * net.hidden_size : grads;
}

// Whether the pass turns its W and R products' operands K-major and TF32 (or half) first (turn): where the passes
// prepare TF32 operands (rnn_products.hpp) and the grid's tiles span the rows. Else the products read the reserve
// space's rows in place.
bool turned_products(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    const int64_t widest = std::max<int64_t>(
        {static_cast<int64_t>(net.gates()) * net.hidden_size, net.input_size, static_cast<int64_t>(p.y_size())});
    return rnn_prepares_tf32_operands(p) && rnn_turn_fits(widest);
}

// Half factors' largest magnitudes in the workspace (at.maxima, cleared before each pseudo-layer): the gate gradients
// of W's product and of R's, the layer input, the previous h.
enum Maximum { kGatesW, kGatesR, kInput, kPrevious };
static_assert(kRnnOperandMaxima == 4, "the four maxima above");

// Which of a layer's gate-gradient maxima the bias gradients' pass recorded (bias_gradients' BiasMaxima).
struct FoundMaxima {
    bool gates_w = false, gates_r = false;
};

// Whether every layer output and previous h lies within half's range whatever the data, so that its half factors need
// no scale (nor a pass to find one): the LSTM's h = o tanh(c) and a tanh cell's lie in [-1, 1], a GRU's h is a
// weighted mean of tanh values and the previous h (hx: half data, within half's range); not a ReLU cell's, nor the
// LSTM's projected h (r = P h), nor a layer input past the dropout between layers (its factor 1 / (1 - p)).
bool outputs_within_half(const RnnNetwork &net) {
    return net.cell != CUDNN_RNN_RELU && net.proj_size == net.hidden_size;
}

// One pseudo-layer's W and R gradients from turned operands: the gate gradients [gates * hidden][ld] in the
// gates piece, the layer input [width][ld] in sequence_a, the previous h [projSize][ld] in sequence_b (ld: the
// steps rounded up to whole 16-byte rows of the factor type; the workspace holds the float rows, rnn_plan.cpp). The
// cells other than the GRU leave the same gradients for W's products and R's, turned once. Factor: float (TF32) or
// __half (rnn_f16_weight_products: each float operand scaled by its largest magnitude, at.maxima, where it may leave
// half's range; `found`: the gate gradients' maxima already recorded).
template <class T, class Factor>
Status turned_layer_products(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b,
                             const RnnWorkspacePointers<float> &at, int pl, const float *grads,
                             const float *outputs_start, FoundMaxima found) {
    constexpr bool kHalf = std::is_same_v<Factor, __half>;
    const RnnNetwork &net = p.net;
    const int layer = pl / net.directions(), dir = pl % net.directions();
    const int P = net.proj_size, N = p.batch_size, Y = p.y_size();
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * N,
                  gH = static_cast<int64_t>(net.gates()) * net.hidden_size;
    const int64_t ld = kHalf ? (steps + 7) / 8 * 8 : rnn_turned_row(steps),
                  gradient_block = rnn_reserve_gradient_block(net);
    const RnnLayerPlaces places = rnn_layer_places(net, pl);
    const float *reserve = static_cast<const float *>(b.reserve);
    Factor *const gates = reinterpret_cast<Factor *>(at.gates),
                  *const sequence_a = reinterpret_cast<Factor *>(at.sequence_a),
                  *const sequence_b = reinterpret_cast<Factor *>(at.sequence_b);
    const bool bounded = outputs_within_half(net);
    uint32_t *const gates_w_maximum = kHalf ? at.maxima + kGatesW : nullptr,
                    *const gates_r_maximum = kHalf ? at.maxima + kGatesR : nullptr,
                    *const input_maximum =
                        kHalf && !(bounded && !p.dropout_between_layers()) ? at.maxima + kInput : nullptr,
                    *const previous_maximum = kHalf && !bounded ? at.maxima + kPrevious : nullptr;
    GemmOperands<float> product;
    product.scratch = at.split, product.scratch_elements = at.split_elements;
    product.k = steps, product.m = gH, product.a = reinterpret_cast<const float *>(gates), product.a_row = ld,
    product.a_col = 1;
    product.b_row = 1, product.b_col = ld;
    product.tf32_rounded = !kHalf, product.f16_factors = kHalf;
    const auto weight_product = [&](const GemmOperands<float> &operands) {
        if constexpr (kHalf) return gemm_tf32(stream, operands, at.products, at.product_bytes);
        return rnn_product(stream, p, RnnProductScope::all_steps, RnnProductShape::backward_filter, operands,
                           at.products, at.product_bytes);
    };
    const bool shared_gradients = net.cell != CUDNN_GRU;
    if (places.input_matrices >= 0) {
        const int width = places.width;
        uint32_t *const input_scale = layer == 0 ? nullptr : input_maximum;  // the data's own x is half already
        if (layer == 0) {
            const RnnSequenceElement<T, float> x{static_cast<const T *>(b.x), at.rows, at.lengths, N, width};
            LIBREDNN_CHECK(turn(stream, x, steps, width, sequence_a, ld));
        } else {
            // The layer's input as the forward gave it: the output below, times its dropout factors.
            const float *factors =
                p.dropout_between_layers() ? reserve + rnn_reserve_dropout_start(p) + steps * Y * (layer - 1) : nullptr;
            const DenseRows below{outputs_start + steps * Y * (layer - 1), factors, Y};
            LIBREDNN_CHECK(turn(stream, below, steps, width, sequence_a, ld, input_scale));
        }
        LIBREDNN_CHECK(turn(stream, DenseRows{grads, nullptr, gradient_block}, steps, static_cast<int>(gH), gates, ld,
                            gates_w_maximum, found.gates_w));
        product.n = width, product.b = reinterpret_cast<const float *>(sequence_a);
        product.a_maximum = gates_w_maximum, product.b_maximum = input_scale;
        product.c = at.weights + places.input_matrices, product.c_row = width;
        LIBREDNN_CHECK(weight_product(product));
    }
    if (places.input_matrices < 0 || !shared_gradients) {
        // The other cells' R-side gradients are W's: their largest magnitude is gates_w's.
        uint32_t *const maximum = shared_gradients ? gates_w_maximum : gates_r_maximum;
        LIBREDNN_CHECK(turn(stream, DenseRows{recurrent_gate_gradients(net, grads), nullptr, gradient_block}, steps,
                            static_cast<int>(gH), gates, ld, maximum,
                            shared_gradients ? found.gates_w : found.gates_r));
        product.a_maximum = maximum;
    }
    const T *hx = b.hx ? static_cast<const T *>(b.hx) + static_cast<int64_t>(pl) * N * P : nullptr;
    const RnnPreviousH<T, float> previous{at.lengths, N, P, dir, outputs_start + steps * Y * layer, Y, hx};
    LIBREDNN_CHECK(turn(stream, previous, steps, P, sequence_b, ld, previous_maximum));
    product.n = P, product.b = reinterpret_cast<const float *>(sequence_b);
    product.b_maximum = previous_maximum;
    product.c = at.weights + places.recurrent_matrices, product.c_row = P;
    return weight_product(product);
}

template <class T, class C>
Status backward_weights(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    const RnnNetwork &net = p.net;
    const int g = net.gates(), H = net.hidden_size, P = net.proj_size, N = p.batch_size, Y = p.y_size();
    const int64_t steps = static_cast<int64_t>(p.max_seq_length) * N, gH = static_cast<int64_t>(g) * H;
    const RnnWorkspacePointers<C> at = rnn_workspace_pointers<C>(p, workspace);
    LIBREDNN_CHECK(rnn_upload_tables(stream, p, at.lengths, at.rows));
    const bool turned = std::is_same_v<C, float> && turned_products(p);
    const bool half_factors = turned && std::is_same_v<T, __half> && rnn_f16_weight_products(p);
    if (!turned) {
        rnn_load_sequences_kernel<T, C><<<rnn_grid(steps * net.input_size), kRnnBlock, 0, stream>>>(
            static_cast<const T *>(b.x), at.rows, at.lengths, N, steps, net.input_size, at.sequence_a);
        LIBREDNN_CHECK(check_launch("rnn_load_sequences_kernel"));
    }
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
        // The bias gradients: the column sums of the gate gradients. Where the weight gradients take half factors
        // the pass comes first and also records the gate gradients' largest magnitudes, which then need no pass of
        // their own.
        FoundMaxima found;
        const bool input_bias = places.input_biases >= 0, recurrent_bias = places.recurrent_biases >= 0;
        const auto bias_pass = [&]() -> Status {
            if (!input_bias && !recurrent_bias) return CUDNN_STATUS_SUCCESS;
            BiasMaxima maxima;
            C *first = sums + (input_bias ? places.input_biases : places.recurrent_biases);
            if (net.cell != CUDNN_GRU) {
                // The same gradients on both sides (gr may be gw rounded to TF32 for backward data's W^T dG,
                // rnn_cell_backward.cuh): both biases' gradients are gw's column sums, summed once.
                if (half_factors) maxima.first = at.maxima + kGatesW, found.gates_w = true;
                LIBREDNN_CHECK(bias_gradients<C>(stream, grads, gradient_block, steps, static_cast<int>(gH), first,
                                                 first, static_cast<int>(gH), parts, parts_elements, maxima));
                if (!input_bias || !recurrent_bias) return CUDNN_STATUS_SUCCESS;
                const cudaError_t error = cudaMemcpyAsync(sums + places.recurrent_biases, first, sizeof(C) * gH,
                                                          cudaMemcpyDeviceToDevice, stream);
                return error == cudaSuccess
                           ? CUDNN_STATUS_SUCCESS
                           : fail(CUDNN_STATUS_EXECUTION_FAILED, "copying the RNN's bias gradients failed: %s",
                                  cudaGetErrorString(error));
            }
            // The GRU: both biases' gradients in one pass where both are present (the input side's gradients, then
            // the recurrent side's, lie side by side in a row).
            const int columns = static_cast<int>((input_bias && recurrent_bias ? 2 : 1) * gH);
            C *second = recurrent_bias ? sums + places.recurrent_biases : first;
            if (half_factors) {
                maxima.first = at.maxima + (input_bias ? kGatesW : kGatesR);
                maxima.second = input_bias && recurrent_bias ? at.maxima + kGatesR : nullptr;
                found.gates_w = input_bias;
                found.gates_r = recurrent_bias;
            }
            return bias_gradients<C>(stream, input_bias ? grads : grads + gH, gradient_block, steps, columns, first,
                                     second, input_bias ? static_cast<int>(gH) : columns, parts, parts_elements,
                                     maxima);
        };
        if (half_factors) {
            const cudaError_t error = cudaMemsetAsync(at.maxima, 0, kRnnOperandMaxima * sizeof(uint32_t), stream);
            if (error != cudaSuccess)
                return fail(CUDNN_STATUS_EXECUTION_FAILED, "clearing the RNN workspace's maxima failed: %s",
                            cudaGetErrorString(error));
            LIBREDNN_CHECK(bias_pass());
        }
        if constexpr (std::is_same_v<C, float>) {
            if (turned) {
                const float *outputs = reserve + outputs_start;
                const Status status =
                    half_factors ? turned_layer_products<T, __half>(stream, p, b, at, pl, grads, outputs, found)
                                 : turned_layer_products<T, float>(stream, p, b, at, pl, grads, outputs, found);
                LIBREDNN_CHECK(status);
            }
        }
        if (!turned) {
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
            if (places.input_matrices >= 0) {
                product.m = gH, product.n = width, product.a = grads;
                product.b = input, product.b_row = width;
                product.c = sums + places.input_matrices, product.c_row = width;
                LIBREDNN_CHECK(weight_product(product));
            }
            product.m = gH, product.n = P, product.a = recurrent_gate_gradients(net, grads);
            product.b = at.gates, product.b_row = P;
            product.c = sums + places.recurrent_matrices, product.c_row = P;
            LIBREDNN_CHECK(weight_product(product));
        }
        if (places.projection >= 0) {
            product.m = P, product.n = H, product.a = grads + 2 * gH;
            product.b = reserve + pl * steps * forward_block + 5 * static_cast<int64_t>(H),
            product.b_row = forward_block;
            product.c = sums + places.projection, product.c_row = H;
            LIBREDNN_CHECK(weight_product(product));
        }
        if (!half_factors) LIBREDNN_CHECK(bias_pass());
    }
    const int64_t count = rnn_weight_elements(net);
    return finish_gradients<T, C>(stream, sums, count, b.add_grad, static_cast<T *>(b.dweights));
}

}  // namespace

bool rnn_turn_fits(int64_t columns) { return columns <= int64_t{65535} * kTurnTile; }

Status rnn_turn_tf32(cudaStream_t stream, const float *rows, int64_t count, int columns, int64_t row_stride,
                     float *turned, int64_t ld) {
    return turn(stream, DenseRows{rows, nullptr, row_stride}, count, columns, turned, ld);
}

Status rnn_backward_weights_pass(cudaStream_t stream, const RnnProblem &p, const RnnBuffers &b, void *workspace) {
    switch (p.net.data_type) {
        case CUDNN_DATA_HALF: return backward_weights<__half, float>(stream, p, b, workspace);
        case CUDNN_DATA_FLOAT: return backward_weights<float, float>(stream, p, b, workspace);
        default: return backward_weights<double, double>(stream, p, b, workspace);
    }
}

}  // namespace librednn::cuda
