// The fused backward-data step of the CUDA RNN (rnn_fused_backward_step.hpp).
#include "cuda/rnn/rnn_fused_backward_step.hpp"

#include "cuda/common/async_copy.cuh"
#include "cuda/rnn/rnn_cell_backward.cuh"
#include "cuda/rnn/rnn_fused_step.hpp"

#include <cstdlib>
#include <cstring>

namespace librednn::cuda {

namespace {

constexpr int kWarps = 8, kHalves = kWarps / 2;
constexpr int kColumns = 64;                 // sequences a pass, a lane each and again 32 on
constexpr int kChunk = 128;                  // rows of R^T's sum a tile of gradients holds
constexpr int kPitch = kChunk + 4;           // floats a sequence's row of the tile: 16-byte reads hit every bank
constexpr size_t kSharedLimit = 200 * 1024;  // dynamic shared memory at most (with `partial`, within 227 KB)
constexpr size_t kTileBytes = 2 * kColumns * kPitch * sizeof(float);

size_t shared_bytes(int rows, int units) { return static_cast<size_t>(rows) * units * sizeof(float) + kTileBytes; }

// Block b takes units [kUnits b, kUnits (b + 1)). First it copies R's columns of those units, every row, into
// shared memory (rt[r][u] = R[r][unit0 + u]). Then for each pass of 64 sequences the gradients of step s + 1
// (the rows of R's gates, gr, in the reserve space) stream through two tiles of 128 rows each: lane l of each
// warp sums for sequences l and l + 32 the 16 rows of the tile that are its warp's, and the warps' sums meet in
// shared memory in a fixed order. A sequence without step s + 1 takes the state's dh instead (dhy, loaded before
// the first step). The block then runs its units' cell backward for step s.
template <class T, int kGates, int kUnits>
__global__ void __launch_bounds__(kWarps * 32)
    fused_backward_step_kernel(const __grid_constant__ CellBackward<T, float> a, const float *recurrent) {
    __shared__ float partial[kHalves][kUnits][kColumns];
    extern __shared__ float4 shared[];
    const int tid = static_cast<int>(threadIdx.x), warp = tid / 32, lane = tid % 32;
    const int H = a.H, N = a.N, rows = kGates * H, unit0 = static_cast<int>(blockIdx.x) * kUnits;
    float *rt = reinterpret_cast<float *>(shared);  // [rows][kUnits]
    float4 *tiles = shared + rows * kUnits / 4;     // [2][kColumns][kPitch / 4]
    for (int e = tid; e < rows * (kUnits / 4); e += kWarps * 32) {
        const int r = e / (kUnits / 4), q = e % (kUnits / 4);
        async_copy16(rt + r * kUnits + 4 * q, recurrent + static_cast<int64_t>(r) * H + unit0 + 4 * q);
    }
    async_copy_wait_all();
    __syncthreads();
    const int next = a.s + 1;  // the step whose gradients make this step's dh
    const int chunks = (rows + kChunk - 1) / kChunk;
    for (int first = 0; first < N; first += kColumns) {
        // Sequence `first + column`'s row of step s + 1's recurrent gate gradients, or NULL without that step.
        const auto row_of = [&](int column) -> const float * {
            const int n = first + column;
            if (n >= N) return nullptr;
            const int t = rnn_step_time(a.lengths, n, a.dir, next);
            if (t < 0) return nullptr;
            return a.grads + (static_cast<int64_t>(t) * N + n) * a.grads_row + rows;
        };
        const auto load_chunk = [&](int c) {
            float4 *tile = tiles + (c % 2) * kColumns * (kPitch / 4);
            for (int e = tid; e < kColumns * (kChunk / 4); e += kWarps * 32) {
                const int column = e / (kChunk / 4), q = e % (kChunk / 4), r0 = c * kChunk + 4 * q;
                const float *row = row_of(column);
                const bool inside = row != nullptr && r0 < rows;  // rows is a multiple of 8: whole vectors
                async_copy16_or_zeros(tile + column * (kPitch / 4) + q, inside ? row + r0 : recurrent, inside ? 16 : 0);
            }
            async_copy_commit();
        };
        float acc[kUnits][2];
#pragma unroll
        for (int u = 0; u < kUnits; ++u) acc[u][0] = acc[u][1] = 0.0f;
        for_each_double_buffered_chunk(chunks, load_chunk, [&](int c) {
            const float4 *tile = tiles + (c % 2) * kColumns * (kPitch / 4);
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const int local = 16 * warp + 4 * j, r = c * kChunk + local;
                if (r >= rows) break;
                const float4 g0 = tile[lane * (kPitch / 4) + local / 4];
                const float4 g1 = tile[(lane + 32) * (kPitch / 4) + local / 4];
                const float first_g[4] = {g0.x, g0.y, g0.z, g0.w}, second_g[4] = {g1.x, g1.y, g1.z, g1.w};
#pragma unroll
                for (int q = 0; q < 4; ++q)
#pragma unroll
                    for (int u = 0; u < kUnits; ++u) {
                        const float w = rt[(r + q) * kUnits + u];
                        acc[u][0] = fmaf(w, first_g[q], acc[u][0]);
                        acc[u][1] = fmaf(w, second_g[q], acc[u][1]);
                    }
            }
        });
        if (warp >= kHalves) {
#pragma unroll
            for (int u = 0; u < kUnits; ++u) {
                partial[warp - kHalves][u][lane] = acc[u][0];
                partial[warp - kHalves][u][lane + 32] = acc[u][1];
            }
        }
        __syncthreads();
        if (warp < kHalves) {
#pragma unroll
            for (int u = 0; u < kUnits; ++u) {
                partial[warp][u][lane] += acc[u][0];
                partial[warp][u][lane + 32] += acc[u][1];
            }
        }
        __syncthreads();
        for (int e = tid; e < kUnits * kColumns; e += kWarps * 32) {
            const int u = e / kColumns, j = e % kColumns, n = first + j, i = unit0 + u;
            if (n >= N) continue;
            float *dh = a.state + n * a.spn + a.at.dh + i;
            float dh_in = *dh;  // dhy: the sequence has no step s + 1
            if (row_of(j) != nullptr) {
                dh_in = 0.0f;
#pragma unroll
                for (int half = 0; half < kHalves; ++half) dh_in += partial[half][u][j];
            }
            if (a.s < 0) {  // after step 0: dhx
                *dh = dh_in;
                continue;
            }
            const int t = rnn_step_time(a.lengths, n, a.dir, a.s);
            if (t < 0) continue;
            const float dout =
                a.dout[(static_cast<int64_t>(t) * N + n) * a.out_row + static_cast<int64_t>(a.dir) * a.P + i];
            rnn_cell_backward_unit(a, n, i, t, dh_in + dout);
        }
        __syncthreads();  // the next pass writes `partial` again
    }
}

template <class T, int kGates, int kUnits>
Status launch_with(cudaStream_t stream, const CellBackward<T, float> &a, const float *recurrent) {
    const auto kernel = fused_backward_step_kernel<T, kGates, kUnits>;
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(kernel));
    const size_t bytes = shared_bytes(kGates * a.H, kUnits);
    if (!opt_in.allow(bytes))
        return fail(CUDNN_STATUS_EXECUTION_FAILED, "the fused RNN backward step's %zu bytes of shared memory", bytes);
    kernel<<<a.H / kUnits, kWarps * 32, bytes, stream>>>(a, recurrent);
    return check_launch("fused_backward_step_kernel");
}

template <class T, int kGates>
Status launch(cudaStream_t stream, const CellBackward<T, float> &a, const float *recurrent) {
    if (a.H >= kRnnFusedWideTileHidden && shared_bytes(kGates * a.H, 8) <= kSharedLimit)
        return launch_with<T, kGates, 8>(stream, a, recurrent);
    return launch_with<T, kGates, 4>(stream, a, recurrent);
}

bool switched_on() {
    static const bool on = [] {
        const char *value = std::getenv("LIBREDNN_RNN_FUSED_BACKWARD");
        return value != nullptr && std::strcmp(value, "1") == 0;
    }();
    return on;
}

bool host_aligned16(const void *pointer) { return reinterpret_cast<uintptr_t>(pointer) % 16 == 0; }

}  // namespace

bool rnn_fused_backward_applies(const RnnProblem &p, const float *recurrent, const float *grads, int64_t grads_row) {
    const RnnNetwork &net = p.net;
    return switched_on() && net.cell != CUDNN_GRU && !net.projection() && rnn_compute_type(net) == CUDNN_DATA_FLOAT &&
           p.batch_size >= kRnnFusedStepBatch && net.hidden_size % 8 == 0 &&
           shared_bytes(net.gates() * net.hidden_size, 4) <= kSharedLimit && host_aligned16(recurrent) &&
           host_aligned16(grads) && grads_row % 4 == 0;
}

template <class T>
Status rnn_fused_backward_step(cudaStream_t stream, const CellBackward<T, float> &cell, const float *recurrent) {
    return cell.cell == CUDNN_LSTM ? launch<T, 4>(stream, cell, recurrent) : launch<T, 1>(stream, cell, recurrent);
}

template Status rnn_fused_backward_step<__half>(cudaStream_t, const CellBackward<__half, float> &, const float *);
template Status rnn_fused_backward_step<float>(cudaStream_t, const CellBackward<float, float> &, const float *);

}  // namespace librednn::cuda
