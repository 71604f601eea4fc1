// The channel-tile softmax kernel: rows whose elements are strided while neighbouring rows are
// neighbours in memory (CHANNEL mode on NCHW: a row is a pixel's C channels, H*W apart). A block takes
// 64 neighbouring rows, so each warp access is contiguous, and splits their elements four ways; the
// four partial statistics meet in shared memory. Pass 2 reads the input again (mostly from L2).
#include "cuda/tensor_ops/launch_util.hpp"
#include "cuda/tensor_ops/softmax_kernels.hpp"
#include "cuda/tensor_ops/softmax_math.cuh"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kTileRows = 64;  // threadIdx.x: neighbouring rows
constexpr int kSplit = 4;      // threadIdx.y: every kSplit-th element of the rows
constexpr int kChunk = 8;      // elements loaded before they are folded into the statistics

template <class C>
struct ChannelArgs {
    const void *inputs[2];
    void *output;
    int64_t inner;   // rows along the contiguous batch dim
    int64_t outer;   // the other batch dims together
    int64_t length;  // elements per row
    int64_t element_strides[3];
    int algorithm, backward, blend;
    C alpha, beta;
    DeviceLayout outer_layout;  // the batch without its contiguous dim
};

template <class T, class C>
__global__ void __launch_bounds__(kTileRows *kSplit) softmax_channel_kernel(const __grid_constant__ ChannelArgs<C> a) {
    __shared__ RowStats<C> partial[kSplit][kTileRows];
    const int algorithm = a.algorithm, backward = a.backward;
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int64_t inner = static_cast<int64_t>(blockIdx.x) * kTileRows + tx;
    const bool active = inner < a.inner;
    const int64_t s0 = a.element_strides[0], s1 = a.element_strides[1], s2 = a.element_strides[2];

    for (int64_t o = blockIdx.y; o < a.outer; o += gridDim.y) {
        int64_t at[3];
        offsets_of(a.outer_layout, o, at);
        T *out = static_cast<T *>(a.output) + at[0] + inner;
        const T *in0 = static_cast<const T *>(a.inputs[0]) + at[1] + inner;
        const T *in1 = static_cast<const T *>(a.inputs[1]) + at[2] + inner;

        RowStats<C> stats = {-C(INFINITY), C(0)};
        if (active) {
            for (int64_t c0 = ty; c0 < a.length; c0 += int64_t{kSplit} * kChunk) {
                C x[kChunk], y[kChunk];
                bool valid[kChunk];
#pragma unroll
                for (int u = 0; u < kChunk; ++u) {
                    const int64_t c = c0 + int64_t{u} * kSplit;
                    valid[u] = c < a.length;
                    x[u] = valid[u] ? to_compute<C>(in0[c * s1]) : C(0);
                    y[u] = valid[u] && backward ? to_compute<C>(in1[c * s2]) : C(0);
                }
                if (!backward) {
                    combine_stats(stats, forward_stats_of(x, valid, algorithm), algorithm, 0);
                } else {
#pragma unroll
                    for (int u = 0; u < kChunk; ++u) {
                        if (valid[u]) stats.sum += backward_term(x[u], y[u], algorithm);
                    }
                }
            }
        }
        partial[ty][tx] = stats;
        __syncthreads();
        RowStats<C> total = partial[0][tx];
#pragma unroll
        for (int s = 1; s < kSplit; ++s) combine_stats(total, partial[s][tx], algorithm, backward);
        __syncthreads();  // partial is reused by the next outer index
        if (!active) continue;
        const RowConstants<C> k = row_constants(total, algorithm);
        for (int64_t c = ty; c < a.length; c += kSplit) {
            const C x = to_compute<C>(in0[c * s1]);
            C value =
                backward ? backward_value(x, to_compute<C>(in1[c * s2]), k, algorithm) : forward_value(x, k, algorithm);
            value *= a.alpha;
            if (a.blend) value += a.beta * to_compute<C>(out[c * s0]);
            out[c * s0] = from_compute<T>(value);
        }
    }
}

template <class T, class C>
Status launch_typed(cudaStream_t stream, const SoftmaxLaunch &launch, const StridedLayout &outer, int64_t inner) {
    ChannelArgs<C> args{};
    args.inputs[0] = launch.inputs[0];
    args.inputs[1] = launch.inputs[1];
    args.output = launch.output;
    args.inner = inner;
    args.outer = outer.element_count();
    args.length = launch.row.element_count();
    for (int k = 0; k < 3; ++k) args.element_strides[k] = launch.row.strides[k][0];
    args.algorithm = launch.algorithm;
    args.backward = launch.backward ? 1 : 0;
    args.blend = launch.beta != 0.0;
    args.alpha = static_cast<C>(launch.alpha);
    args.beta = static_cast<C>(launch.beta);
    args.outer_layout = to_device_layout(outer);
    const int64_t tiles = (inner + kTileRows - 1) / kTileRows;
    const dim3 grid(static_cast<unsigned>(tiles), static_cast<unsigned>(std::min<int64_t>(args.outer, 65535)));
    softmax_channel_kernel<T, C><<<grid, dim3(kTileRows, kSplit), 0, stream>>>(args);
    return check_launch("softmax_channel_kernel");
}

}  // namespace

bool launch_softmax_channel_tiles(cudaStream_t stream, const SoftmaxLaunch &launch, Status *status) {
    const StridedLayout &batch = launch.batch;
    if (launch.row.rank != 1 || batch.rank < 1) return false;
    const int last = batch.rank - 1;
    for (int k = 0; k < 3; ++k) {
        if (batch.strides[k][last] != 1) return false;
    }
    const int64_t inner = batch.extents[last];
    // Worth it when a tile's rows are mostly there; huge grids stay with the general kernel.
    if (inner < kTileRows / 2 || (inner + kTileRows - 1) / kTileRows > 0x7fffffff) return false;
    StridedLayout outer = batch;
    outer.rank = last;
    if (outer.rank == 0) {
        outer.rank = 1;
        outer.extents[0] = 1;
        for (int k = 0; k < 3; ++k) outer.strides[k][0] = 0;
    }
    switch (launch.type) {
        case ScalarType::f32: *status = launch_typed<float, float>(stream, launch, outer, inner); return true;
        case ScalarType::f64: *status = launch_typed<double, double>(stream, launch, outer, inner); return true;
        case ScalarType::f16: *status = launch_typed<__half, float>(stream, launch, outer, inner); return true;
        case ScalarType::bf16: *status = launch_typed<__nv_bfloat16, float>(stream, launch, outer, inner); return true;
        default: return false;
    }
}

}  // namespace librednn::cuda
