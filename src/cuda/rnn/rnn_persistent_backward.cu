// The persistent backward-data recurrence of the CUDA RNN (rnn_persistent.hpp): one cooperative kernel for all the
// steps of a pseudo-layer, each block holding the columns of R of its hidden units (R^T's rows) in shared memory.
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_cell_backward.cuh"
#include "cuda/rnn/rnn_persistent.cuh"
#include "cuda/rnn/rnn_persistent.hpp"

#include <cooperative_groups.h>

namespace librednn::cuda {

namespace {

constexpr int kMaxQuads = 4;  // quads of k (gates x hidden) a thread takes
constexpr int kMaxGateRows = kPersistentThreads * 4 * kMaxQuads;

template <class T>
struct PersistentBackward {
    CellBackward<T, float> cell;
    const float *recurrent;  // [gates * H][H]
    float *exchange;         // [2][N][gates * H]: the steps' recurrent gate gradients, alternating
    const float *pre_h;      // the GRU's R_h h + b_Rh of every step [T][N][H], else NULL
    PersistentGeometry g;    // rows: the units' columns of R, k: gates * H
    int steps;
    int vector;  // gates * H a multiple of 4 and the exchange 16-byte aligned: 16-byte loads
};

// Block b takes units [units b, units (b + 1)): its row u is column units b + u of R (every gate's rows). The steps
// run from the last to the first; each:
// - the cell threads (thread u N + n: unit u, sequence n) add the layer output's gradient to dh, run the backward
//   cell (the gate gradients to the reserve space, the recurrent ones to this step's exchange buffer), and carry
//   dc (the GRU's z * dh);
// - the grid-wide barrier: every block's gate gradients of the step written;
// - R^T times them for the block's units (persistent_products over k = gates * H), which the cell threads add
//   (with z * dh) into dh for the step before.
// The exchange buffers alternate, so a block may start the next step while another still reads this one's.
template <class T, int kBatch>
__global__ void __launch_bounds__(kPersistentThreads, 1)
    persistent_backward_data_kernel(const __grid_constant__ PersistentBackward<T> a) {
    extern __shared__ float4 shared[];
    const PersistentGeometry &g = a.g;
    float4 *rows = shared;                                                    // [rows_pad][quads]
    float *partial = reinterpret_cast<float *>(rows + g.rows_pad * g.quads);  // [rows_pad][columns_pad][warps]
    const CellBackward<T, float> &cell = a.cell;
    const int H = cell.H, N = cell.N, U = g.units, gates = rnn_cell_gates(cell.cell), gH = gates * H;
    const int tid = static_cast<int>(threadIdx.x), unit0 = static_cast<int>(blockIdx.x) * U;
    // Column unit0 + r of R, gathered once (a column is strided: scalar loads).
    for (int e = tid; e < g.rows_pad * g.quads; e += kPersistentThreads) {
        const int r = e / g.quads, k = 4 * (e % g.quads), unit = min(H - 1, unit0 + r);
        float v[4] = {0.0f, 0.0f, 0.0f, 0.0f};
#pragma unroll
        for (int j = 0; j < 4; ++j)
            if (r < g.rows && k + j < gH) v[j] = a.recurrent[static_cast<int64_t>(k + j) * H + unit];
        rows[e] = make_float4(v[0], v[1], v[2], v[3]);
    }
    __syncthreads();

    const int u = tid / N, n = tid % N, i = unit0 + u;
    const bool cell_thread = u < U && i < H;
    const int length = cell_thread ? cell.lengths[n] : 0;
    float *state = cell.state + n * cell.spn;
    for (int k = 0; k < a.steps; ++k) {
        const int s = a.steps - 1 - k;
        float *exchange = a.exchange + static_cast<int64_t>(k % 2) * N * gH;
        const int t = cell_thread && s < length ? (cell.dir == 0 ? s : length - 1 - s) : -1;
        if (t >= 0) {
            const int64_t row = static_cast<int64_t>(t) * N + n;
            const float dh = state[cell.at.dh + i] + cell.dout[row * cell.out_row + int64_t{cell.dir} * cell.P + i];
            state[cell.at.dh + i] = dh;
            const bool gru = cell.cell == CUDNN_GRU;
            rnn_cell_backward_unit(cell, n, i, s, t, dh, exchange + static_cast<int64_t>(n) * gH,
                                   gru ? rnn_previous_h(cell, n, i, t, s == 0) : 0.0f,
                                   gru ? a.pre_h[row * H + i] : 0.0f);
        } else if (cell_thread) {
            for (int q = 0; q < gates; ++q) exchange[static_cast<int64_t>(n) * gH + q * H + i] = 0.0f;  // unused
        }
        cooperative_groups::this_grid().sync();  // every block's gate gradients of step s written and visible
        const PersistentVectors grads{exchange, gH, gH, a.vector};
        persistent_products<kBatch, kMaxQuads>(rows, g, grads, N, partial);
        __syncthreads();
        if (t >= 0) {
            const float z_dh = cell.cell == CUDNN_GRU ? state[cell.at.z_dh + i] : 0.0f;
            state[cell.at.dh + i] = persistent_sum(partial, g, u, n, 0.0f) + z_dh;
        }
        // `partial` is written again only after the next step's grid-wide barrier.
    }
}

template <class T>
const void *kernel_for(int tile) {
    return tile == 1 ? reinterpret_cast<const void *>(persistent_backward_data_kernel<T, 1>)
                     : reinterpret_cast<const void *>(persistent_backward_data_kernel<T, 4>);
}

template <class T>
const SharedMemoryOptIn &opt_in_for(int tile) {
    static const SharedMemoryOptIn one(kernel_for<T>(1)), four(kernel_for<T>(4));
    return tile == 1 ? one : four;
}

template <class T>
const char *declines(const RnnProblem &p, int64_t exchange_elements) {
    const RnnNetwork &net = p.net;
    const int gH = net.gates() * net.hidden_size;
    const char *why = persistent_declines(p, gH > kMaxGateRows, "gates x hidden is above 4096");
    if (why != nullptr) return why;
    if (exchange_elements < 2 * static_cast<int64_t>(p.batch_size) * gH)
        return "the workspace's split piece holds fewer than two steps' gate gradients";
    const PersistentGeometry g =
        persistent_geometry(1, gH, net.hidden_size, p.batch_size, current_device_limits().sm_count);
    return persistent_geometry_fits(g, p.batch_size, kernel_for<T>(g.tile), opt_in_for<T>(g.tile)) ? nullptr
                                                                                                   : kDoesNotFit;
}

template <class T>
Status launch(cudaStream_t stream, const CellBackward<T, float> &cell, const float *recurrent, const float *pre_h,
              float *exchange, int steps) {
    if (steps <= 0) return CUDNN_STATUS_SUCCESS;
    const int gH = rnn_cell_gates(cell.cell) * cell.H;
    PersistentBackward<T> a;
    a.g = persistent_geometry(1, gH, cell.H, cell.N, current_device_limits().sm_count);
    a.cell = cell, a.recurrent = recurrent, a.exchange = exchange, a.pre_h = pre_h, a.steps = steps;
    a.vector = gH % 4 == 0 && aligned16(exchange);
    if (!opt_in_for<T>(a.g.tile).allow(a.g.bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the persistent RNN backward's %zu bytes of shared memory",
                    a.g.bytes);
    return launch_cooperative(stream, kernel_for<T>(a.g.tile), a.g.blocks, kPersistentThreads, a.g.bytes, &a,
                              "the persistent RNN backward data");
}

}  // namespace

bool rnn_persistent_backward_data_applies(const RnnProblem &p, int64_t exchange_elements, const char **reason) {
    const char *why = p.net.data_type == CUDNN_DATA_HALF ? declines<__half>(p, exchange_elements)
                                                         : declines<float>(p, exchange_elements);
    if (why != nullptr && reason != nullptr) *reason = why;
    return why == nullptr;
}

Status rnn_persistent_backward_data(cudaStream_t stream, const CellBackward<__half, float> &cell,
                                    const float *recurrent, const float *pre_h, float *exchange, int steps) {
    return launch<__half>(stream, cell, recurrent, pre_h, exchange, steps);
}

Status rnn_persistent_backward_data(cudaStream_t stream, const CellBackward<float, float> &cell, const float *recurrent,
                                    const float *pre_h, float *exchange, int steps) {
    return launch<float>(stream, cell, recurrent, pre_h, exchange, steps);
}

}  // namespace librednn::cuda
