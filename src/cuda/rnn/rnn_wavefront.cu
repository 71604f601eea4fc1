// The wavefront forward of the CUDA RNN (rnn_wavefront.hpp): an inference's layers in one cooperative kernel, layer
// l at step w - l of wave w, each block holding its units' rows of every layer's R and of the upper layers' W.
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_persistent.cuh"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_wavefront.hpp"

#include <cooperative_groups.h>

#include <cuda_fp16.h>

#include <type_traits>

namespace librednn::cuda {

namespace {

constexpr int kMaxQuads = 2;  // quads of k a thread takes: hidden sizes up to kPersistentThreads x 4 x kMaxQuads
constexpr int kMaxHidden = kPersistentThreads * 4 * kMaxQuads;
constexpr int kMaxLayers = kRnnWavefrontMaxLayers;

// Layer l's group of rows in shared memory: its R's rows (rows_pad), then, below the last layer, the next layer's W's
// (rows_pad more): the rows that multiply layer l's h. Group l starts at row 2 l rows_pad; all of them hold
// (2 layers - 1) rows_pad rows.
__host__ __device__ inline int group_rows(const PersistentGeometry &g, int layer, int layers) {
    return layer + 1 < layers ? 2 * g.rows_pad : g.rows_pad;
}
__host__ __device__ inline int all_rows(const PersistentGeometry &g, int layers) {
    return (2 * layers - 1) * g.rows_pad;
}

// The bytes of shared memory: every group's rows (quads of `quad_bytes`), then every group's warps' partial sums.
inline size_t wavefront_bytes(const PersistentGeometry &g, int layers, size_t quad_bytes) {
    const size_t rows = static_cast<size_t>(all_rows(g, layers));
    return rows * g.quads * quad_bytes + rows * g.columns_pad * kPersistentWarps * sizeof(float);
}

template <class S>
struct Wavefront {
    CellForward<float> cell[kMaxLayers];
    const S *input[kMaxLayers], *recurrent[kMaxLayers];  // input[0] unused
    const S *input_bias[kMaxLayers], *recurrent_bias[kMaxLayers];
    PersistentGeometry g;  // one matrix's rows: gates x units, k: H
    int layers, steps;
    int vector;  // H a multiple of 4, the matrices aligned to a quad, the states 16-byte aligned: whole-quad loads
};

template <class S>
using QuadOf = std::conditional_t<std::is_same_v<S, float>, float4, PersistentHalfQuad>;

__device__ __forceinline__ float4 zero_quad(const float4 &) { return make_float4(0.0f, 0.0f, 0.0f, 0.0f); }
__device__ __forceinline__ PersistentHalfQuad zero_quad(const PersistentHalfQuad &) {
    return {__float2half2_rn(0.0f), __float2half2_rn(0.0f)};
}

// Block b takes units [units b, units (b + 1)) of every layer. Shared memory: group l (layer l's R rows, then layer
// l + 1's W rows; row r of a matrix's part is gate r / units of unit units b + r % units), every group's partial
// sums after the rows. Cell thread l U N + u N + n runs unit u of sequence n in layer l. Wave w:
// - the cell threads load their h and (LSTM) c before the step (and layer 0's W x + b_W);
// - for every layer l with a step w - l in 0 .. steps (the last only feeding layer l + 1), the products of group l
//   with layer l's h of step w - l - 1 (read from L2, where it was written last wave; at batch 1 every layer's h is
//   loaded before the first product);
// - the cell threads add the sums: pre(q) from their layer's R rows, gx(q) from the layer below's W rows (+ b_W),
//   run the cell, and write the new h (the last layer also its output);
// - the grid-wide barrier (the next wave reads every block's h).
template <class S, int kBatch>
__global__ void __launch_bounds__(kPersistentThreads, 1)
    wavefront_forward_kernel(const __grid_constant__ Wavefront<S> a) {
    using Quad = QuadOf<S>;
    extern __shared__ float4 shared[];
    const PersistentGeometry &g = a.g;
    const int L = a.layers, H = a.cell[0].H, N = a.cell[0].N, U = g.units, Q = g.quads;
    const int tid = static_cast<int>(threadIdx.x), unit0 = static_cast<int>(blockIdx.x) * U;
    Quad *const rows = reinterpret_cast<Quad *>(shared);                          // [all rows][quads]
    float *const partial = reinterpret_cast<float *>(rows + all_rows(g, L) * Q);  // [all rows][columns_pad][warps]
    const auto group = [&](int l) { return 2 * l * g.rows_pad; };                 // group l's first row
    for (int e = tid; e < all_rows(g, L) * Q; e += kPersistentThreads) {
        const int row = e / Q, q = e % Q, l = row / (2 * g.rows_pad), r = row % g.rows_pad;
        if (r >= g.rows) {
            rows[e] = zero_quad(rows[e]);
            continue;
        }
        const S *matrix = row - group(l) < g.rows_pad ? a.recurrent[l] : a.input[l + 1];
        const int unit = min(H - 1, unit0 + r % U);  // a unit past H reads a valid row, unused
        persistent_stage_quad(rows + e, matrix + (static_cast<int64_t>(r / U) * H + unit) * H, H, q, a.vector);
    }
    async_copy_wait_all();
    __syncthreads();

    const int gates = rnn_cell_gates(a.cell[0].cell), UN = U * N;
    const int l = tid / UN, u = tid % UN / N, n = tid % N, i = unit0 + u;
    const bool cell_thread = l < L && u < U && i < H;
    float bias_r[4] = {0.0f, 0.0f, 0.0f, 0.0f}, bias_w[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int length = 0;
    if (cell_thread) {
        length = a.cell[l].lengths[n];
#pragma unroll
        for (int q = 0; q < 4; ++q)
            if (q < gates) {
                if (a.recurrent_bias[l]) bias_r[q] = to_compute<float>(a.recurrent_bias[l][q * H + i]);
                if (l > 0 && a.input_bias[l]) bias_w[q] = to_compute<float>(a.input_bias[l][q * H + i]);
            }
    }
    const int waves = a.steps + L - 1;
    for (int w = 0; w < waves; ++w) {
        // The cell's other inputs, in flight while the products run.
        const int s = w - l;
        const bool active = cell_thread && s >= 0 && s < a.steps;
        const int t = active && s < length ? s : -1;
        float gx[4] = {0.0f, 0.0f, 0.0f, 0.0f}, h_before = 0.0f, c_before = 0.0f;
        const CellForward<float> &cell = a.cell[cell_thread ? l : 0];
        const int64_t h_in = s % 2 == 0 ? cell.at.h : cell.at.h_new, h_out = s % 2 == 0 ? cell.at.h_new : cell.at.h;
        if (active) {
            h_before = __ldcg(cell.state + n * cell.spn + h_in + i);
            if (gates == 4) c_before = __ldcg(cell.state + n * cell.spn + cell.at.c + i);  // only the LSTM reads it
            if (t >= 0 && l == 0) {
                const float *row = cell.gates + (static_cast<int64_t>(t) * N + n) * gates * H + i;
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (q < gates) gx[q] = row[q * H];
            }
        }
        // Layer j's step this wave is w - j: its h of step w - j - 1 feeds it and layer j + 1's step w - j - 1.
        const auto takes_part = [&](int j) { return j < L && w - j >= 0 && w - j <= a.steps; };
        const auto vectors = [&](int j) {
            const CellForward<float> &cj = a.cell[j];
            return PersistentVectors{cj.state + ((w - j) % 2 == 0 ? cj.at.h : cj.at.h_new), cj.spn, H, a.vector};
        };
        const auto layer_geometry = [&](int j) {
            PersistentGeometry gj = g;
            gj.rows_pad = group_rows(g, j, L);
            return gj;
        };
        if constexpr (kBatch == 1) {
            // One sequence, one pass a layer: every layer's h is loaded before the first product, so that the
            // layers' reads from L2 overlap instead of each waiting for the one before it.
            float4 h[kMaxLayers][kMaxQuads][1];
#pragma unroll
            for (int j = 0; j < kMaxLayers; ++j)
                if (takes_part(j)) persistent_load_pass<1, kMaxQuads>(g, vectors(j), N, 0, h[j]);
#pragma unroll
            for (int j = 0; j < kMaxLayers; ++j)
                if (takes_part(j))
                    persistent_pass_products<1, kMaxQuads>(rows + group(j) * Q, layer_geometry(j), h[j], 0,
                                                           partial + group(j) * g.columns_pad * kPersistentWarps);
        } else {
            for (int j = 0; j < L; ++j)
                if (takes_part(j))
                    persistent_products<kBatch, kMaxQuads>(rows + group(j) * Q, layer_geometry(j), vectors(j), N,
                                                           partial + group(j) * g.columns_pad * kPersistentWarps);
        }
        __syncthreads();
        if (active) {
            float *state = cell.state + n * cell.spn;
            if (t < 0) {
                state[h_out + i] = h_before;  // no step s: h carries over to the other buffer
            } else {
                // Row r of group j's sums: partial's row group(j) + r.
                const auto pre = [&](int q) { return persistent_sum(partial, g, group(l) + q * U + u, n, bias_r[q]); };
                const auto input = [&](int q) {
                    return l == 0 ? gx[q]
                                  : persistent_sum(partial, g, group(l - 1) + g.rows_pad + q * U + u, n, bias_w[q]);
                };
                float value = 0.0f;
                rnn_cell_forward_unit_from(cell, n, i, t, input, pre, h_before, &value, &c_before);
                state[h_out + i] = value;
                if (l == L - 1) cell.out[(static_cast<int64_t>(t) * N + n) * cell.out_row + i] = value;
            }
        }
        // Every block's h of wave w written and visible before the next wave reads it; the partial sums free again.
        if (w + 1 < waves) cooperative_groups::this_grid().sync();
    }
}

template <class S>
const void *kernel_for(int tile) {
    return tile == 1 ? reinterpret_cast<const void *>(wavefront_forward_kernel<S, 1>)
                     : reinterpret_cast<const void *>(wavefront_forward_kernel<S, 4>);
}

template <class S>
const SharedMemoryOptIn &opt_in_for(int tile) {
    static const SharedMemoryOptIn one(kernel_for<S>(1)), four(kernel_for<S>(4));
    return tile == 1 ? one : four;
}

template <class S>
Status launch(cudaStream_t stream, const CellForward<float> *cells, const WavefrontWeights *weights, int layers,
              int steps) {
    Wavefront<S> a{};
    const CellForward<float> &first = cells[0];
    a.g = persistent_geometry(rnn_cell_gates(first.cell), first.H, first.H, first.N, current_device_limits().sm_count);
    a.layers = layers, a.steps = steps;
    a.vector = first.H % 4 == 0;
    for (int l = 0; l < layers; ++l) {
        a.cell[l] = cells[l];
        a.input[l] = static_cast<const S *>(weights[l].input);
        a.recurrent[l] = static_cast<const S *>(weights[l].recurrent);
        a.input_bias[l] = static_cast<const S *>(weights[l].input_bias);
        a.recurrent_bias[l] = static_cast<const S *>(weights[l].recurrent_bias);
        const uintptr_t quad = 4 * sizeof(S);
        a.vector = a.vector && cells[l].spn % 4 == 0 && aligned16(cells[l].state) &&
                   reinterpret_cast<uintptr_t>(a.recurrent[l]) % quad == 0 &&
                   (l == 0 || reinterpret_cast<uintptr_t>(a.input[l]) % quad == 0);
    }
    const size_t bytes = wavefront_bytes(a.g, layers, sizeof(QuadOf<S>));
    if (!opt_in_for<S>(a.g.tile).allow(bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the wavefront RNN kernel's %zu bytes of shared memory", bytes);
    return launch_cooperative(stream, kernel_for<S>(a.g.tile), a.g.blocks, kPersistentThreads, bytes, &a,
                              "the wavefront RNN forward");
}

template <class S>
bool fits(const RnnProblem &p) {
    const RnnNetwork &net = p.net;
    const PersistentGeometry g = persistent_geometry(net.gates(), net.hidden_size, net.hidden_size, p.batch_size,
                                                     current_device_limits().sm_count);
    return persistent_launch_fits(g, net.layers * g.units * p.batch_size,
                                  wavefront_bytes(g, net.layers, sizeof(QuadOf<S>)), kernel_for<S>(g.tile),
                                  opt_in_for<S>(g.tile));
}

}  // namespace

bool rnn_wavefront_switched_on() {
    static const bool on = !switched_off("LIBREDNN_RNN_WAVEFRONT");
    return on;
}

bool rnn_wavefront_forward_applies(const RnnProblem &p, const char **reason) {
    const RnnNetwork &net = p.net;
    const char *why = persistent_declines(p, net.hidden_size > kMaxHidden, "the hidden size is above 2048");
    if (why == nullptr) {
        if (!rnn_wavefront_switched_on())
            why = "switched off by LIBREDNN_RNN_WAVEFRONT=0";
        else if (p.training)
            why = "it runs inference only";
        else if (net.bidirectional)
            why = "it takes unidirectional networks only";
        else if (net.layers < 2 || net.layers > kMaxLayers)
            why = "it takes networks of 2 to 4 layers";
        else if (net.data_type != CUDNN_DATA_HALF && net.data_type != CUDNN_DATA_FLOAT)
            why = "it takes half or float data";
        else if (rnn_layer_places(net, 1).input_matrices < 0)
            why = "a layer above the first has no W";
        else if (!(net.data_type == CUDNN_DATA_HALF ? fits<__half>(p) : fits<float>(p)))
            why =
                "the layers' rows of R and W do not fit a block's shared memory, or their cell threads a block, or "
                "the device cannot hold every block at once";
    }
    if (why != nullptr && reason != nullptr) *reason = why;
    return why == nullptr;
}

Status rnn_wavefront_forward(cudaStream_t stream, cudnnDataType_t data_type, const CellForward<float> *cells,
                             const WavefrontWeights *weights, int layers, int steps) {
    if (steps <= 0) return CUDNN_STATUS_SUCCESS;
    return data_type == CUDNN_DATA_HALF ? launch<__half>(stream, cells, weights, layers, steps)
                                        : launch<float>(stream, cells, weights, layers, steps);
}

}  // namespace librednn::cuda
