// Device pieces the CUDA RNN passes share: where sequence n is at recurrence step s, and the kernels that
// move sequences and states between the caller's tensors (type T) and the workspace (compute type C).
#pragma once

#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cudnn.h>

#include <cstdint>

namespace librednn::cuda {

constexpr int kRnnBlock = 256;

// The time step sequence n is at when the recurrence of direction `dir` takes its step s (the backward
// direction starts at the sequence's own last step), or -1 when the sequence has no step s.
__device__ __forceinline__ int rnn_step_time(const int *lengths, int n, int dir, int s) {
    const int length = lengths[n];
    if (s >= length) return -1;
    return dir == 0 ? s : length - 1 - s;
}

// Gates a cell of this mode (cudnnRNNMode_t) has.
__host__ __device__ inline int rnn_cell_gates(int cell) { return cell == CUDNN_LSTM ? 4 : cell == CUDNN_GRU ? 3 : 1; }

// Blocks of kRnnBlock threads for a grid-stride loop over `items`.
inline int rnn_grid(int64_t items) { return grid_size(items, 1, kRnnBlock); }

// Element (step, i) of the caller's sequence tensor as dense rows take it: row rows[step] (step = t N + n), 0 beyond
// the sequence's length. rnn_load_sequences_kernel copies it; backward weights turns it K-major.
template <class T, class C>
struct RnnSequenceElement {
    const T *data;
    const int64_t *rows;
    const int *lengths;
    int N, width;
    __device__ C operator()(int64_t step, int i) const {
        const int t = static_cast<int>(step / N), n = static_cast<int>(step % N);
        return t < lengths[n] ? to_compute<C>(data[rows[step] * width + i]) : C(0);
    }
};

// dense[(t, n)][i] = the sequence tensor's (t, n, i), 0 beyond the sequence's length.
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    rnn_load_sequences_kernel(const T *data, const int64_t *rows, const int *lengths, int N, int64_t steps, int width,
                              C *dense) {
    const RnnSequenceElement<T, C> element{data, rows, lengths, N, width};
    const int64_t total = steps * width;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        dense[e] = element(e / width, static_cast<int>(e % width));
}

// The sequence tensor from dense rows (row stride `stride`): `fill` beyond each sequence's length where the
// layout has such positions.
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    rnn_store_sequences_kernel(const C *dense, int64_t stride, const int64_t *rows, const int *lengths, int N,
                               int64_t steps, int width, C fill, T *data) {
    const int64_t total = steps * width;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const int64_t step = e / width;
        const int i = static_cast<int>(e % width);
        const int t = static_cast<int>(step / N), n = static_cast<int>(step % N);
        const int64_t row = rows[step];
        if (row < 0) continue;  // packed: no such position
        data[row * width + i] = from_compute<T>(t < lengths[n] ? dense[step * stride + i] : fill);
    }
}

template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock) rnn_convert_kernel(const T *from, int64_t count, C *to) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        to[e] = to_compute<C>(from[e]);
}

// Elements [first, first + count) of the weight space converted to C, at the same place of `weights`.
template <class T, class C>
Status rnn_convert_weights(cudaStream_t stream, const void *weight_space, int64_t first, int64_t count, C *weights) {
    rnn_convert_kernel<T, C><<<rnn_grid(count), kRnnBlock, 0, stream>>>(static_cast<const T *>(weight_space) + first,
                                                                        count, weights + first);
    return check_launch("rnn_convert_kernel");
}

// The weights a forward or backward-data pass reads (*weights): the caller's weight space where it lies where
// `in_place` (rnn_reads_weights_in_place: T is C, and nothing writes them), else its `count` elements converted to C
// into *weights, the workspace's piece.
template <class T, class C>
Status rnn_pass_weights(cudaStream_t stream, const void *weight_space, int64_t count, bool in_place, C **weights) {
    if (in_place) {
        *weights = const_cast<C *>(static_cast<const C *>(weight_space));  // only read by the pass
        return CUDNN_STATUS_SUCCESS;
    }
    return rnn_convert_weights<T, C>(stream, weight_space, 0, count, *weights);
}

// to[n][i] = from[n][i] (or 0 when from is NULL): a state tensor's pseudo-layer into the workspace.
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    rnn_load_state_kernel(const T *from, int64_t count, C *to, int64_t stride, int width) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        to[(e / width) * stride + e % width] = from ? to_compute<C>(from[e]) : C(0);
}

template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    rnn_store_state_kernel(const C *from, int64_t stride, int width, int64_t count, T *to) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        to[e] = from_compute<T>(from[(e / width) * stride + e % width]);
}

// Element (step, i) of every step's previous h for pseudo-layer `dir` of a layer (step = t N + n): the layer
// output one step before in the recurrence's order, hx (this pseudo-layer's, or zeros) at its first step, zeros
// beyond the sequence. Backward weights' R products read it, and backward data's GRU R_h h + b_Rh of every step.
template <class T, class C>
struct RnnPreviousH {
    const int *lengths;
    int N, P, dir;
    const C *outputs;
    int64_t out_row;
    const T *hx;
    __device__ C operator()(int64_t step, int i) const {
        const int t = static_cast<int>(step / N), n = static_cast<int>(step % N);
        const int length = lengths[n];
        if (t >= length) return C(0);
        if (dir == 0 ? t == 0 : t == length - 1) return hx ? to_compute<C>(hx[static_cast<int64_t>(n) * P + i]) : C(0);
        const int previous = dir == 0 ? t - 1 : t + 1;
        return outputs[(static_cast<int64_t>(previous) * N + n) * out_row + static_cast<int64_t>(dir) * P + i];
    }
};

// The previous h of every step, [T][N][P] (RnnPreviousH).
template <class T, class C>
__global__ void __launch_bounds__(kRnnBlock)
    rnn_gather_all_previous_h_kernel(const int *lengths, int N, int64_t steps, int P, int dir, const C *outputs,
                                     int64_t out_row, const T *hx, C *h_prev) {
    const RnnPreviousH<T, C> element{lengths, N, P, dir, outputs, out_row, hx};
    const int64_t total = steps * P;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        h_prev[e] = element(e / P, static_cast<int>(e % P));
}

// out[e] = in[e] * factors[e] (in place when out is in): a layer output's gradient, or a layer input, through
// the dropout factors the training forward left in the reserve space.
template <class C>
__global__ void __launch_bounds__(kRnnBlock)
    rnn_apply_dropout_kernel(const C *in, const C *factors, int64_t count, C *out) {
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < count;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x)
        out[e] = in[e] * factors[e];
}

}  // namespace librednn::cuda
