// The persistent forward recurrence of the CUDA RNN (rnn_persistent.hpp): one cooperative kernel for all the
// steps of a pseudo-layer, each block holding its units' rows of R in shared memory.
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_cell_forward.cuh"
#include "cuda/rnn/rnn_persistent.cuh"
#include "cuda/rnn/rnn_persistent.hpp"

#include <cooperative_groups.h>

namespace librednn::cuda {

namespace {

constexpr int kMaxQuads = 2;  // quads of k a thread takes: hidden sizes up to kPersistentThreads x 4 x kMaxQuads
constexpr int kMaxHidden = kPersistentThreads * 4 * kMaxQuads;

struct Persistent {
    CellForward<float> cell;
    const float *recurrent;  // [gates * H][H]
    const float *bias;       // [gates * H] or NULL
    PersistentGeometry g;    // rows: gates x units of R, k: H
    int steps;
    int vector;  // H a multiple of 4 and R, the state and its rows 16-byte aligned: 16-byte loads
};

// Block b takes units [units b, units (b + 1)): row r of its R is gate r / units of unit units b + r % units. Each
// step:
// - the cell threads (thread u N + n: unit u, sequence n) load what their cell needs besides R h: W x + b_W of
//   their unit at the sequence's time, h and (LSTM) c before the step, all in flight while R h is computed;
// - R h (persistent_products: h read from L2, where every block wrote its units' h the step before);
// - the cell threads add the warps' sums in order, run the cell, and write the new h;
// - the grid-wide barrier (the next step reads every block's h).
template <int kBatch>
__global__ void __launch_bounds__(kPersistentThreads, 1)
    persistent_forward_kernel(const __grid_constant__ Persistent a) {
    extern __shared__ float4 shared[];
    const PersistentGeometry &g = a.g;
    float4 *rows = shared;                                                    // [rows_pad][quads]
    float *partial = reinterpret_cast<float *>(rows + g.rows_pad * g.quads);  // [rows_pad][columns_pad][warps]
    const CellForward<float> &cell = a.cell;
    const int H = cell.H, N = cell.N, U = g.units;
    const int tid = static_cast<int>(threadIdx.x), unit0 = static_cast<int>(blockIdx.x) * U;
    for (int e = tid; e < g.rows_pad * g.quads; e += kPersistentThreads) {
        const int r = e / g.quads, q = e % g.quads;
        if (r >= g.rows) {
            rows[e] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
            continue;
        }
        const int unit = min(H - 1, unit0 + r % U);  // a unit past H reads a valid row, unused
        persistent_stage_quad(rows + e, a.recurrent + (static_cast<int64_t>(r / U) * H + unit) * H, H, q, a.vector);
    }
    async_copy_wait_all();
    __syncthreads();

    const int gates = rnn_cell_gates(cell.cell);
    const int u = tid / N, n = tid % N, i = unit0 + u;
    const bool cell_thread = u < U && i < H;
    float bias[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int length = 0;
    if (cell_thread) {
        length = cell.lengths[n];
#pragma unroll
        for (int q = 0; q < 4; ++q)
            if (q < gates && a.bias) bias[q] = a.bias[q * H + i];
    }
    for (int s = 0; s < a.steps; ++s) {
        const int64_t h_in = s % 2 == 0 ? cell.at.h : cell.at.h_new, h_out = s % 2 == 0 ? cell.at.h_new : cell.at.h;
        // The cell's other inputs, in flight while R h is computed.
        const int t = cell_thread && s < length ? (cell.dir == 0 ? s : length - 1 - s) : -1;
        float gx[4] = {0.0f, 0.0f, 0.0f, 0.0f}, h_before = 0.0f, c_before = 0.0f;
        if (cell_thread) {
            h_before = __ldcg(cell.state + n * cell.spn + h_in + i);
            if (gates == 4) c_before = __ldcg(cell.state + n * cell.spn + cell.at.c + i);  // only the LSTM reads it
            if (t >= 0) {
                const float *row = cell.gates + (static_cast<int64_t>(t) * N + n) * gates * H + i;
#pragma unroll
                for (int q = 0; q < 4; ++q)
                    if (q < gates) gx[q] = row[q * H];
            }
        }
        const PersistentVectors h{cell.state + h_in, cell.spn, H, a.vector};
        persistent_products<kBatch, kMaxQuads>(rows, g, h, N, partial);
        __syncthreads();
        if (cell_thread) {
            float *state = cell.state + n * cell.spn;
            if (t < 0) {
                state[h_out + i] = h_before;  // no step s: h carries over to the other buffer
            } else {
                const auto pre = [&](int q) { return persistent_sum(partial, g, q * U + u, n, bias[q]); };
                float value = 0.0f;
                rnn_cell_forward_unit_from(
                    cell, n, i, t, [&](int q) { return gx[q]; }, pre, h_before, &value, &c_before);
                state[h_out + i] = value;
                cell.out[(static_cast<int64_t>(t) * N + n) * cell.out_row + static_cast<int64_t>(cell.dir) * cell.P +
                         i] = value;
            }
        }
        // Every block's h of step s written and visible before the next step reads it; `partial` free again.
        if (s + 1 < a.steps) cooperative_groups::this_grid().sync();
    }
}

const void *kernel_for(int tile) {
    return tile == 1 ? reinterpret_cast<const void *>(persistent_forward_kernel<1>)
                     : reinterpret_cast<const void *>(persistent_forward_kernel<4>);
}

const SharedMemoryOptIn &opt_in_for(int tile) {
    static const SharedMemoryOptIn one(kernel_for(1)), four(kernel_for(4));
    return tile == 1 ? one : four;
}

}  // namespace

bool rnn_persistent_switched_on() {
    static const bool on = !switched_off("LIBREDNN_RNN_PERSISTENT");
    return on;
}

bool rnn_persistent_forward_applies(const RnnProblem &p, const char **reason) {
    const RnnNetwork &net = p.net;
    const char *why = persistent_declines(p, net.hidden_size > kMaxHidden, "the hidden size is above 2048");
    if (why == nullptr) {
        const PersistentGeometry g = persistent_geometry(net.gates(), net.hidden_size, net.hidden_size, p.batch_size,
                                                         current_device_limits().sm_count);
        if (!persistent_geometry_fits(g, p.batch_size, kernel_for(g.tile), opt_in_for(g.tile))) why = kDoesNotFit;
    }
    if (why != nullptr && reason != nullptr) *reason = why;
    return why == nullptr;
}

Status rnn_persistent_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int steps) {
    if (steps <= 0) return CUDNN_STATUS_SUCCESS;
    Persistent a;
    a.g = persistent_geometry(rnn_cell_gates(cell.cell), cell.H, cell.H, cell.N, current_device_limits().sm_count);
    a.cell = cell, a.recurrent = recurrent, a.bias = bias, a.steps = steps;
    a.vector = cell.H % 4 == 0 && cell.P % 4 == 0 && cell.spn % 4 == 0 && aligned16(recurrent) && aligned16(cell.state);
    if (!opt_in_for(a.g.tile).allow(a.g.bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the persistent RNN kernel's %zu bytes of shared memory", a.g.bytes);
    return launch_cooperative(stream, kernel_for(a.g.tile), a.g.blocks, kPersistentThreads, a.g.bytes, &a,
                              "the persistent RNN forward");
}

}  // namespace librednn::cuda
