// Backward data's recurrent product split over blocks, on TF32 tensor cores (rnn_split_product.hpp).
#include "cuda/rnn/rnn_split_product.hpp"

#include "cuda/common/async_copy.cuh"
#include "cuda/common/device_common.cuh"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/mma_tf32.cuh"
#include "cuda/rnn/rnn_persistent.hpp"

#include <algorithm>
#include <cstdlib>

namespace librednn::cuda {

namespace {

constexpr int kThreads = 256;             // eight warps: four of 16 rows by two of 32 columns
constexpr int kTile = 64;                 // rows (sequences) and columns (units of the previous h) of a block
constexpr int kSlice = 32;                // terms (gate rows of R) a stage holds
constexpr int kRowStride = kSlice + 4;    // the gradients' slice: a fragment's 32 lanes fall in 32 banks
constexpr int kColumnStride = kTile + 8;  // R's slice, likewise
constexpr int kMaxSplits = 16;            // parts a unit's sum adds at most (the cells read them all)
constexpr int kMaxRows = 64;              // sequences: one row tile (the split scratch exists up to batch 64)

struct SplitArguments {
    const float *grads;  // [N] rows of gH at stride grads_row
    int64_t grads_row;
    const float *recurrent;  // [gH][P]
    float *parts;            // [splits][N][P]
    int N, P, gH, slices;    // slices: a split's 32-term slices
};

struct alignas(16) SplitStage {  // the 16-byte copies' targets
    float grads[kTile][kRowStride];
    float recurrent[kSlice][kColumnStride];
};

// Block (column tile, split, row tile): its 64 x 64 tile of the split's part. Warp w takes rows 16 (w % 4) and
// columns 32 (w / 4) of the tile, four m16n8k8 products a k-step of 8.
__global__ void __launch_bounds__(kThreads) split_product_kernel(const __grid_constant__ SplitArguments a) {
    __shared__ SplitStage stage[2];
    const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
    const int column0 = static_cast<int>(blockIdx.x) * kTile, split = static_cast<int>(blockIdx.y);
    const int row0 = static_cast<int>(blockIdx.z) * kTile;
    const int total_slices = (a.gH + kSlice - 1) / kSlice, first = split * a.slices;
    const int count = min(a.slices, total_slices - first);
    // A stage: 64 rows x 8 and 32 rows x 16 copies of 16 bytes, two of each a thread; zeros beyond the operands
    // (gH, P and the rows of each are multiples of 4 floats: a copy is wholly inside or outside).
    const auto load = [&](int c) {
        SplitStage &to = stage[c % 2];
        const int j0 = (first + c) * kSlice;
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            const int e = tid + q * kThreads;
            const int r = e / 8, j = j0 + 4 * (e % 8), n = row0 + r;
            const bool inside = n < a.N && j < a.gH;
            async_copy16_or_zeros(&to.grads[r][4 * (e % 8)], inside ? a.grads + n * a.grads_row + j : a.grads,
                                  inside ? 16 : 0);
        }
#pragma unroll
        for (int q = 0; q < 2; ++q) {
            const int e = tid + q * kThreads;
            const int r = e / 16, k = column0 + 4 * (e % 16), j = j0 + r;
            const bool inside = j < a.gH && k < a.P;
            async_copy16_or_zeros(&to.recurrent[r][4 * (e % 16)],
                                  inside ? a.recurrent + static_cast<int64_t>(j) * a.P + k : a.recurrent,
                                  inside ? 16 : 0);
        }
        async_copy_commit();
    };
    const int g = lane / 4, t = lane % 4, rows = 16 * (warp % 4), columns = 32 * (warp / 4);
    float sum[4][4] = {};
    const auto use = [&](int c) {
        const SplitStage &from = stage[c % 2];
#pragma unroll
        for (int kk = 0; kk < kSlice; kk += 8) {
            const uint32_t a0 = tf32_bits(from.grads[rows + g][kk + t]),
                           a1 = tf32_bits(from.grads[rows + g + 8][kk + t]);
            const uint32_t a2 = tf32_bits(from.grads[rows + g][kk + t + 4]);
            const uint32_t a3 = tf32_bits(from.grads[rows + g + 8][kk + t + 4]);
#pragma unroll
            for (int f = 0; f < 4; ++f) {
                const int column = columns + 8 * f + g;
                mma_tf32_m16n8k8(sum[f], a0, a1, a2, a3, tf32_bits(from.recurrent[kk + t][column]),
                                 tf32_bits(from.recurrent[kk + t + 4][column]));
            }
        }
    };
    for_each_double_buffered_chunk(count, load, use);
    float *part = a.parts + static_cast<int64_t>(split) * a.N * a.P;
#pragma unroll
    for (int f = 0; f < 4; ++f)
#pragma unroll
        for (int h = 0; h < 2; ++h) {
            const int n = row0 + rows + g + 8 * h, k = column0 + columns + 8 * f + 2 * t;
            if (n >= a.N || k >= a.P) continue;  // P is even: k + 1 < P too
            part[static_cast<int64_t>(n) * a.P + k] = sum[f][2 * h];
            part[static_cast<int64_t>(n) * a.P + k + 1] = sum[f][2 * h + 1];
        }
}

bool switched_on() {
    static const bool on = !switched_off("LIBREDNN_RNN_SPLIT_STEP");
    return on;
}

// Blocks an SM the splits aim at: 2, or LIBREDNN_RNN_SPLIT_BLOCKS (1 to 8; read once), a measurement knob. More
// blocks hide more latency in the product; fewer leave fewer parts for the cells to add.
int blocks_per_sm() {
    static const int kept = [] {
        const char *value = std::getenv("LIBREDNN_RNN_SPLIT_BLOCKS");
        const int wanted = value != nullptr ? std::atoi(value) : 0;
        return wanted >= 1 && wanted <= 8 ? wanted : 2;
    }();
    return kept;
}

}  // namespace

bool rnn_split_product_plan(const RnnProblem &p, int64_t scratch_elements, RnnSplitProduct *plan, const char **reason) {
    static_assert(kRnnPersistentMaxBatch == 16 && kMaxRows == 64, "the sentences below");
    const RnnNetwork &net = p.net;
    const int N = p.batch_size, H = net.hidden_size, gH = net.gates() * H;
    const auto no = [&](const char *why) {
        if (reason != nullptr) *reason = why;
        return false;
    };
    if (!switched_on()) return no("switched off by LIBREDNN_RNN_SPLIT_STEP=0");
    if (rnn_compute_type(net) != CUDNN_DATA_FLOAT) return no("it computes in float only");
    if (net.math_type == CUDNN_FMA_MATH)
        return no("it multiplies on TF32 tensor cores, which CUDNN_FMA_MATH rules out");
    if (net.projection()) return no("it takes no projection");
    if (H % 4 != 0) return no("it takes hidden sizes that are multiples of 4");
    if (N <= kRnnPersistentMaxBatch || N > kMaxRows) return no("it takes batches of 17 to 64 sequences");
    RnnSplitProduct s;
    s.column_tiles = (H + kTile - 1) / kTile;
    s.row_tiles = 1;
    // About two blocks an SM (a block's 37 KB of shared memory and 256 threads let several share one), as few
    // splits as give that, and at most kMaxSplits (on the H200, hidden 512: 16 splits of four slices took 0.90 of
    // 32 splits of two's time; hidden 1024, 16 splits 0.97-0.99 of 9's;
    // bench/results/2026-12-03-h200-rnn-step-products/).
    const int total_slices = (gH + kSlice - 1) / kSlice, target = blocks_per_sm() * current_device_limits().sm_count;
    const int wanted =
        std::clamp((target + s.column_tiles - 1) / s.column_tiles, 1, std::min(total_slices, kMaxSplits));
    s.slices = (total_slices + wanted - 1) / wanted;
    for (;; ++s.slices) {
        s.splits = (total_slices + s.slices - 1) / s.slices;
        if (static_cast<int64_t>(s.splits) * N * H <= scratch_elements) break;
        if (s.splits == 1) return no("the workspace's split piece cannot hold the parts");
    }
    *plan = s;
    return true;
}

bool rnn_split_product_aligned(const float *grads, int64_t grads_row, const float *recurrent) {
    return aligned16(grads) && grads_row % 4 == 0 && aligned16(recurrent);
}

Status rnn_split_product(cudaStream_t stream, const RnnSplitProduct &plan, const float *grads, int64_t grads_row,
                         const float *recurrent, int N, int P, int gH, float *parts) {
    SplitArguments a;
    a.grads = grads, a.grads_row = grads_row, a.recurrent = recurrent, a.parts = parts;
    a.N = N, a.P = P, a.gH = gH, a.slices = plan.slices;
    const dim3 grid(static_cast<unsigned>(plan.column_tiles), static_cast<unsigned>(plan.splits),
                    static_cast<unsigned>(plan.row_tiles));
    split_product_kernel<<<grid, kThreads, 0, stream>>>(a);
    return check_launch("split_product_kernel");
}

}  // namespace librednn::cuda
