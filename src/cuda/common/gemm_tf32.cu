// The TF32 tensor-core matrix product (gemm_tf32.hpp): a block of 8 warps computes a 128 x 128 tile of C,
// each warp 64 x 32 of it in mma.sync m16n8k8 steps. A and B stream through shared memory 32 k at a time in
// three stages of 16-byte asynchronous copies, each tile stored the way its operand lies (k contiguous, or
// m or n contiguous), its 16-byte chunks swizzled so that the fragment reads hit 32 different banks; the
// factors round to TF32 as they leave shared memory. Each lane reads its fragments as pairs of neighbours
// (8-byte loads): within each 8-k step the mma's k index t and t + 4 are the stored k 2t and 2t + 1 (for A
// and B alike, so the sum is the same), and where m (n) is the contiguous index the mma's rows g and g + 8
// are the stored rows 2g and 2g + 1 (columns: g of two neighbouring 8-column tiles are 2g and 2g + 1), which
// the epilogue undoes. With a split k each block writes its part, unscaled, and a second kernel adds the
// parts in split order.
#include "cuda/common/gemm_tf32.hpp"

#include "cuda/common/async_copy.cuh"
#include "cuda/common/gemm_tf32_tiles.cuh"
#include "cuda/common/gemm_tf32_tma.hpp"
#include "cuda/common/gemm_tf32_wgmma.hpp"
#include "cuda/common/launch_util.hpp"
#include "cuda/common/mma_tf32.cuh"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace librednn::cuda {

namespace {

using namespace tf32_tiles;

constexpr int kThreads = kTileThreads, kTileN = 128, kStages = 3;
constexpr int kOperandFloats = kTileM * kTileK;  // [128][32] (k contiguous) or [32][128], swizzled
static_assert(kGemmTf32WgmmaTileN >= kTileN, "gemm_tf32_takes bounds n for grids of kTileN-wide tiles");
constexpr size_t kSharedBytes = static_cast<size_t>(kStages) * 2 * kOperandFloats * sizeof(float);
constexpr int kMinSplitTiles = 8;  // k-tiles a split part keeps at least
constexpr int kBlocksPerSm = 2;    // of the mma.sync kernel (__launch_bounds__)

// Where element (outer, l) of a tile lies: [128][32] rows of outer index with chunk c of each row at
// c ^ 2 (outer mod 4), or [32][128] rows of k with chunk c at c ^ 2 ((l / 2) mod 4). The 16 lanes of one
// 8-byte load then cover the 32 banks once.
template <bool KContiguous>
__device__ __forceinline__ int tile_index(int outer, int l) {
    if constexpr (KContiguous) {
        return outer * kTileK + ((((l >> 2) ^ ((outer & 3) << 1))) << 2) + (l & 3);
    } else {
        return l * kTileM + ((((outer >> 2) ^ (((l >> 1) & 3) << 1))) << 2) + (outer & 3);
    }
}

// One thread's share of one operand's tiles: four 16-byte chunks of each, at fixed places in the tile (chunk
// i 1024 floats after chunk 0), read from a source that steps along k from tile to tile. The operand's element
// (outer, l) lies at p[outer * outer_stride + l * k_stride], one of the strides 1 (A's outer index is m, B's n).
template <bool KContiguous>
struct TileLoader {
    const float *base, *source;  // the operand; chunk 0 of the next tile
    int64_t chunk_step, tile_step;
    int place;       // chunk 0's place in the tile
    int outer_left;  // outer indices from chunk 0's first to the operand's end (at most 2^30)
    int l_first;     // chunk 0's first k within a tile

    __device__ __forceinline__ void init(const float *p, int64_t outer_stride, int64_t k_stride, int64_t outer_count,
                                         int64_t outer0, int64_t k_begin, int tid) {
        base = p;
        int outer;
        if constexpr (KContiguous) {  // [128 outer][32 k]: eight chunks a row, rows 32 apart from chunk to chunk
            outer = tid >> 3, l_first = (tid & 7) * 4;
            chunk_step = 32 * outer_stride, tile_step = kTileK;
        } else {  // [32 k][128 outer]: 32 chunks a row, rows 8 apart
            outer = (tid & 31) * 4, l_first = tid >> 5;
            chunk_step = 8 * k_stride, tile_step = kTileK * k_stride;
        }
        place = tile_index<KContiguous>(outer, l_first);
        outer_left = static_cast<int>(min(max(outer_count - (outer0 + outer), int64_t{-1}), int64_t{1} << 30));
        source = p + (outer0 + outer) * outer_stride + (k_begin + l_first) * k_stride;
    }

    // Queues the next tile's copies into `tile`; `k_left` terms of the sum remain from its first k. Zeros past
    // the operand's end and past k_left.
    __device__ __forceinline__ void load(float *tile, int k_left) {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            int bytes;
            if constexpr (KContiguous) {
                bytes = 32 * i < outer_left ? min(max(k_left - l_first, 0), 4) * 4 : 0;
            } else {
                bytes = l_first + 8 * i < k_left ? min(max(outer_left, 0), 4) * 4 : 0;
            }
            async_copy16_or_zeros(tile + place + 1024 * i, bytes > 0 ? source + i * chunk_step : base, bytes);
        }
        source += tile_step;
    }

    // Rounds this thread's chunks of a landed tile to TF32 in place, once for every warp that reads them.
    __device__ __forceinline__ void round(float *tile) const {
#pragma unroll
        for (int i = 0; i < 4; ++i) {
            float4 *chunk = reinterpret_cast<float4 *>(tile + place + 1024 * i);
            float4 v = *chunk;
            v.x = __uint_as_float(tf32_bits(v.x)), v.y = __uint_as_float(tf32_bits(v.y));
            v.z = __uint_as_float(tf32_bits(v.z)), v.w = __uint_as_float(tf32_bits(v.w));
            *chunk = v;
        }
    }
};

template <bool KContiguous>
__device__ __forceinline__ float2 pair_at(const float *tile, int outer, int l) {
    return *reinterpret_cast<const float2 *>(tile + tile_index<KContiguous>(outer, l));
}

template <bool AKContiguous, bool BKContiguous>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm) gemm_tf32_kernel(const __grid_constant__ Tf32Args args) {
    extern __shared__ __align__(16) float shared[];
    const GemmOperands<float> &g = args.g;
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    const int group = lane >> 2, quad = lane & 3;                   // the mma fragments' row and k lanes
    const int warp_m = (warp & 1) * 64, warp_n = (warp >> 1) * 32;  // 2 x 4 warps of 64 x 32
    const int64_t m0 = static_cast<int64_t>(blockIdx.x) * kTileM, n0 = static_cast<int64_t>(blockIdx.y) * kTileN;
    const int64_t k_begin = static_cast<int64_t>(blockIdx.z) * args.k_per_split;
    const int64_t k_end = min(g.k, k_begin + args.k_per_split);
    const int k_tiles = static_cast<int>((k_end - k_begin + kTileK - 1) / kTileK);
    TileLoader<AKContiguous> a_tiles;
    TileLoader<BKContiguous> b_tiles;
    a_tiles.init(g.a, g.a_row, g.a_col, g.m, m0, k_begin, tid);
    b_tiles.init(g.b, g.b_col, g.b_row, g.n, n0, k_begin, tid);
    const auto stage_a = [&](int s) { return shared + s * 2 * kOperandFloats; };
    const auto stage_b = [&](int s) { return shared + s * 2 * kOperandFloats + kOperandFloats; };
    const int k_count = static_cast<int>(k_end - k_begin);
    const auto load_stage = [&](int s, int tile) {  // tiles load in order, each once
        a_tiles.load(stage_a(s), k_count - tile * kTileK);
        b_tiles.load(stage_b(s), k_count - tile * kTileK);
    };

    float acc[4][4][4];
#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) acc[i][j][e] = 0.0f;

#pragma unroll
    for (int s = 0; s < kStages - 1; ++s) {
        if (s < k_tiles) load_stage(s, s);
        async_copy_commit();
    }
    for (int tile = 0; tile < k_tiles; ++tile) {
        async_copy_wait_groups<kStages - 2>();
        a_tiles.round(stage_a(tile % kStages));  // this thread's copies of the tile have landed
        b_tiles.round(stage_b(tile % kStages));
        __syncthreads();  // the tile is rounded for every thread, and the stage refilled below is read out
        const int next = tile + kStages - 1;
        if (next < k_tiles) load_stage(next % kStages, next);
        async_copy_commit();
        const float *ta = stage_a(tile % kStages), *tb = stage_b(tile % kStages);
#pragma unroll
        for (int kk = 0; kk < kTileK; kk += 8) {
            uint32_t af[4][4], bf[4][2];
            const int l = kk + 2 * quad;  // the stored k of the mma's k index quad (quad + 4: the next one)
#pragma unroll
            for (int i = 0; i < 4; ++i) {
                if constexpr (AKContiguous) {
                    const int r = warp_m + i * 16 + group;
                    const float2 top = pair_at<true>(ta, r, l), bottom = pair_at<true>(ta, r + 8, l);
                    af[i][0] = __float_as_uint(top.x), af[i][2] = __float_as_uint(top.y);
                    af[i][1] = __float_as_uint(bottom.x), af[i][3] = __float_as_uint(bottom.y);
                } else {
                    const int r = warp_m + i * 16 + 2 * group;
                    const float2 first = pair_at<false>(ta, r, l), second = pair_at<false>(ta, r, l + 1);
                    af[i][0] = __float_as_uint(first.x), af[i][1] = __float_as_uint(first.y);
                    af[i][2] = __float_as_uint(second.x), af[i][3] = __float_as_uint(second.y);
                }
            }
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                if constexpr (BKContiguous) {
                    const float2 pair = pair_at<true>(tb, warp_n + j * 8 + group, l);
                    bf[j][0] = __float_as_uint(pair.x), bf[j][1] = __float_as_uint(pair.y);
                } else if (j % 2 == 0) {
                    const int c = warp_n + j * 8 + 2 * group;  // columns g of tiles j and j + 1
                    const float2 first = pair_at<false>(tb, c, l), second = pair_at<false>(tb, c, l + 1);
                    bf[j][0] = __float_as_uint(first.x), bf[j + 1][0] = __float_as_uint(first.y);
                    bf[j][1] = __float_as_uint(second.x), bf[j + 1][1] = __float_as_uint(second.y);
                }
            }
#pragma unroll
            for (int i = 0; i < 4; ++i)
#pragma unroll
                for (int j = 0; j < 4; ++j)
                    mma_tf32_m16n8k8(acc[i][j], af[i][0], af[i][1], af[i][2], af[i][3], bf[j][0], bf[j][1]);
        }
    }
    async_copy_wait_groups<0>();

#pragma unroll
    for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j)
#pragma unroll
            for (int e = 0; e < 4; ++e) {
                // The mma's row group (+ 8) and column 2 quad (+ 1), where the tiles stored them.
                const int row = AKContiguous ? group + (e >= 2 ? 8 : 0) : 2 * group + (e >= 2 ? 1 : 0);
                const int column =
                    BKContiguous ? j * 8 + 2 * quad + (e & 1) : (j / 2) * 16 + 2 * (2 * quad + (e & 1)) + j % 2;
                write_sum(args, m0 + warp_m + i * 16 + row, n0 + warp_n + column, acc[i][j][e]);
            }
}

// Adds the split parts in split order and finishes each element (kHalf: undoing half factors' scales first).
template <bool kHalf>
__global__ void __launch_bounds__(kThreads) gemm_tf32_sum_kernel(const __grid_constant__ Tf32Args args, int splits) {
    const GemmOperands<float> &g = args.g;
    const int64_t total = g.m * g.n;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        float sum = 0.0f;
        for (int s = 0; s < splits; ++s) sum += args.partials[s * total + e];
        if constexpr (kHalf) sum = F16Unscale(g)(sum);
        write_result(g, e / g.n, e % g.n, sum);
    }
}

struct SplitPlan {
    int splits = 1;
    int64_t k_per_split = 0;
};

// Splits k where the kernel's tiles (128 x tile_n) would leave some of the SMs' resident blocks (`blocks_per_sm`
// each) idle, each part keeping at least kMinSplitTiles k-tiles and the parts fitting `workspace_bytes`. The
// mma.sync and wgmma kernels split into as many parts as fill every slot (the last wave partly), as measured when
// they landed. The tensor memory accelerator's kernel (`one_wave`, a block an SM) only into as many parts as still
// fit one wave: a part more only adds a wave and the parts' sum (the RNN's weight gradients, 128 tiles on 132 SMs:
// two splits took 100 + 23 us a product; the GRU's at hidden 1024, 96 tiles: 69 + 21 us on half factors, where the
// LSTM's 128 tiles take 56 unsplit). On the H200 this took float data's batch-64 backward weights to 0.78-0.82 of
// their time at hidden 512 (32 and 24 tiles: 4 and 5 parts, not 5 and 6) and 0.79 for the GRU at hidden 1024
// (bench/results/2026-12-04-h200-rnn-input-gradient-tma/, call 4).
// A split's part of k is a whole number of `tile_k` (the kernel's slice).
SplitPlan split_plan(int64_t m, int64_t n, int64_t k, size_t workspace_bytes, int blocks_per_sm, int tile_n,
                     bool one_wave = false, int tile_k = kTileK) {
    const int64_t tiles = ((m + kTileM - 1) / kTileM) * ((n + tile_n - 1) / tile_n);
    const int64_t k_tiles = (k + tile_k - 1) / tile_k;
    const int64_t slots = blocks_per_sm * static_cast<int64_t>(current_device_limits().sm_count);
    int64_t splits = 1;
    if (tiles < slots)
        splits = std::min<int64_t>(
            {kGemmMaxSplit, one_wave ? slots / tiles : (slots + tiles - 1) / tiles, k_tiles / kMinSplitTiles});
    while (splits > 1 && static_cast<size_t>(splits) * m * n * sizeof(float) > workspace_bytes) --splits;
    splits = std::max<int64_t>(splits, 1);
    const int64_t per = (k_tiles + splits - 1) / splits;
    SplitPlan plan;
    plan.splits = static_cast<int>((k_tiles + per - 1) / per);
    plan.k_per_split = per * tile_k;
    return plan;
}

template <bool AK, bool BK>
Status launch(cudaStream_t stream, const Tf32Args &args, int splits) {
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(&gemm_tf32_kernel<AK, BK>));
    if (!opt_in.allow(kSharedBytes)) return CUDNN_STATUS_NOT_SUPPORTED;
    const GemmOperands<float> &g = args.g;
    const dim3 grid(static_cast<unsigned>((g.m + kTileM - 1) / kTileM),
                    static_cast<unsigned>((g.n + kTileN - 1) / kTileN), static_cast<unsigned>(splits));
    gemm_tf32_kernel<AK, BK><<<grid, kThreads, kSharedBytes, stream>>>(args);
    return check_launch("gemm_tf32_kernel");
}

}  // namespace

bool gemm_tf32_takes(const GemmOperands<float> &o, const char **reason) {
    const auto no = [&](const char *why) {
        if (reason != nullptr) *reason = why;
        return false;
    };
    constexpr int64_t kLimit = std::numeric_limits<int32_t>::max();
    if (o.m < 1 || o.n < 1 || o.k < 1) return no("the product is empty");
    if (o.m > kLimit || o.n > int64_t{65535} * kTileN || o.k > kLimit) return no("a size passes the grid's limits");
    if (!unit_stride_rows(o.a_col, o.a_row) && !unit_stride_rows(o.a_row, o.a_col))
        return no("A has neither k nor m at unit stride with a 16-byte multiple for the other stride");
    if (!unit_stride_rows(o.b_row, o.b_col) && !unit_stride_rows(o.b_col, o.b_row))
        return no("B has neither k nor n at unit stride with a 16-byte multiple for the other stride");
    if (reinterpret_cast<uintptr_t>(o.a) % 16 != 0 || reinterpret_cast<uintptr_t>(o.b) % 16 != 0)
        return no("A or B is not 16-byte aligned");
    return true;
}

size_t gemm_tf32_workspace_bytes(int64_t m, int64_t n, int64_t k) {
    if (m < 1 || n < 1 || k < 1) return 0;
    // Room for either kernel's parts (the device decides which one runs).
    constexpr size_t kAny = std::numeric_limits<size_t>::max();
    const int splits = std::max({split_plan(m, n, k, kAny, kBlocksPerSm, kTileN).splits,
                                 split_plan(m, n, k, kAny, kGemmTf32WgmmaBlocksPerSm, kGemmTf32WgmmaTileN).splits,
                                 split_plan(m, n, k, kAny, kGemmTf32TmaBlocksPerSm, kGemmTf32TmaTileN, true).splits});
    return splits > 1 ? static_cast<size_t>(splits) * m * n * sizeof(float) : 0;
}

Tf32Kernel gemm_tf32_chosen_kernel(const GemmOperands<float> &o) {
    // The tensor memory accelerator's kernel where both operands have k contiguous and hold TF32 values already;
    // else wgmma where A has k contiguous. Measured on the H200 (bench/results/2026-12-03-h200-rnn-wgmma/, call 5),
    // wgmma took the RNN's W x and W^T dG 19-30% faster than mma.sync, but with A's m contiguous (the weight
    // gradients as the reserve space holds them) it ran 7% faster on one shape and the passes that hold them 6-14%
    // slower on six of eight.
    const bool a_k = unit_stride_rows(o.a_col, o.a_row), b_k = unit_stride_rows(o.b_row, o.b_col);
    if (o.f16_factors) return Tf32Kernel::tma;  // no other kernel reads halves
    if (a_k && b_k && o.tf32_rounded && gemm_tf32_tma_available()) return Tf32Kernel::tma;
    return a_k && gemm_tf32_wgmma_available() ? Tf32Kernel::wgmma : Tf32Kernel::mma_sync;
}

Status gemm_tf32(cudaStream_t stream, const GemmOperands<float> &o, void *workspace, size_t workspace_bytes,
                 Tf32Kernel requested) {
    const Tf32Kernel kernel = requested == Tf32Kernel::chosen ? gemm_tf32_chosen_kernel(o) : requested;
    const char *reason = nullptr;
    if (kernel == Tf32Kernel::wgmma && !gemm_tf32_wgmma_available(&reason))
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "gemm_tf32 on wgmma: %s", reason);
    const bool a_k = unit_stride_rows(o.a_col, o.a_row), b_k = unit_stride_rows(o.b_row, o.b_col);
    if (o.f16_factors && (kernel != Tf32Kernel::tma || !a_k || !b_k || o.a_row % 8 != 0 || o.b_col % 8 != 0))
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "gemm_tf32 takes half factors on the tensor memory accelerator alone, with k contiguous in A and "
                    "B and rows of whole 16-byte vectors");
    if (kernel == Tf32Kernel::tma) {
        if (!gemm_tf32_tma_available(&reason))
            return fail(CUDNN_STATUS_NOT_SUPPORTED, "gemm_tf32 on the tensor memory accelerator: %s", reason);
        if (!o.f16_factors && (!a_k || !b_k || !o.tf32_rounded))
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "gemm_tf32 on the tensor memory accelerator takes A and B with k contiguous and factors "
                        "rounded to TF32 already");
    }
    int blocks_per_sm = kBlocksPerSm, tile_n = kTileN;
    if (kernel == Tf32Kernel::wgmma) blocks_per_sm = kGemmTf32WgmmaBlocksPerSm, tile_n = kGemmTf32WgmmaTileN;
    if (kernel == Tf32Kernel::tma) blocks_per_sm = kGemmTf32TmaBlocksPerSm, tile_n = kGemmTf32TmaTileN;
    const SplitPlan plan = split_plan(o.m, o.n, o.k, workspace != nullptr ? workspace_bytes : 0, blocks_per_sm, tile_n,
                                      kernel == Tf32Kernel::tma, o.f16_factors ? kGemmF16TmaSliceK : kTileK);
    Tf32Args args;
    args.g = o;
    args.k_per_split = plan.k_per_split;
    args.partials = plan.splits > 1 ? static_cast<float *>(workspace) : nullptr;
    Status status;
    if (kernel == Tf32Kernel::tma) {
        status = gemm_tf32_tma(stream, args, plan.splits);
        // A tensor map the driver turned down, or shared memory it would not give, launched nothing (the reason is
        // logged): where the caller let gemm_tf32 choose, the next kernel takes the product.
        if (status == CUDNN_STATUS_NOT_SUPPORTED && requested == Tf32Kernel::chosen && !o.f16_factors)
            return gemm_tf32(stream, o, workspace, workspace_bytes,
                             a_k && gemm_tf32_wgmma_available() ? Tf32Kernel::wgmma : Tf32Kernel::mma_sync);
    } else if (kernel == Tf32Kernel::wgmma) {
        status = gemm_tf32_wgmma(stream, args, plan.splits);
    } else if (a_k) {
        status = b_k ? launch<true, true>(stream, args, plan.splits) : launch<true, false>(stream, args, plan.splits);
    } else {
        status = b_k ? launch<false, true>(stream, args, plan.splits) : launch<false, false>(stream, args, plan.splits);
    }
    if (status != CUDNN_STATUS_SUCCESS || plan.splits == 1) return status;
    const int grid = grid_size(o.m * o.n, 1, kThreads, 2);
    if (o.f16_factors)
        gemm_tf32_sum_kernel<true><<<grid, kThreads, 0, stream>>>(args, plan.splits);
    else
        gemm_tf32_sum_kernel<false><<<grid, kThreads, 0, stream>>>(args, plan.splits);
    return check_launch("gemm_tf32_sum_kernel");
}

}  // namespace librednn::cuda
