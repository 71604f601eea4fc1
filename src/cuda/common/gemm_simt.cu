// The strided CUDA-core matrix product (gemm_simt.hpp): a block computes a tile of C (128 x 128, 64 x 64, or
// 16 x 64 for the short, wide products of a recurrence step), each thread a register tile of it, walking k
// in slices staged through shared memory. Each operand's slice is loaded with consecutive threads on
// whichever index is contiguous in memory, so all three product shapes read coalesced. Products of at most
// 8 rows against k-contiguous columns (a recurrence step at small batch) take a warp per column instead.
#include "cuda/common/gemm_simt.hpp"

#include "cuda/common/launch_util.hpp"

#include <algorithm>

namespace librednn::cuda {

namespace {

constexpr int kThreads = 256;

// Tiles of BM x BN, each thread TM x TN of them: TM consecutive rows, and TN columns in groups of four
// consecutive ones (BN / (TN / 4) apart), so that a thread's row and column slices are contiguous in
// shared memory.
// A product's tile kernel arguments: with `partials`, block z sums k in [z * k_slice, (z + 1) * k_slice) and
// writes its part to partials[z][m][n], unscaled.
template <class C>
struct TileArgs {
    GemmOperands<C> g;
    int64_t k_slice;
    C *partials;
};

template <class C, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__(kThreads) gemm_simt_kernel(const __grid_constant__ TileArgs<C> args) {
    const GemmOperands<C> &g = args.g;
    static_assert((BM / TM) * (BN / TN) == kThreads, "one thread per TM x TN outputs");
    static_assert(TN % 4 == 0, "columns go in groups of four");
    constexpr int kColumnThreads = BN / TN, kGroupStride = BN / (TN / 4);
    __shared__ __align__(16) C as[BK][BM];
    __shared__ __align__(16) C bs[BK][BN];
    const int64_t row0 = static_cast<int64_t>(blockIdx.y) * BM, col0 = static_cast<int64_t>(blockIdx.x) * BN;
    const int tid = threadIdx.x;
    const int tr = tid / kColumnThreads, tc = tid % kColumnThreads;
    const bool a_k_contiguous = g.a_col == 1, b_n_contiguous = g.b_col == 1;
    C acc[TM][TN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j) acc[i][j] = C(0);

    const int64_t k_begin = blockIdx.z * args.k_slice;
    const int64_t k_end = k_begin + args.k_slice < g.k ? k_begin + args.k_slice : g.k;
    for (int64_t k0 = k_begin; k0 < k_end; k0 += BK) {
        for (int e = tid; e < BM * BK; e += kThreads) {
            const int mi = a_k_contiguous ? e / BK : e % BM;
            const int ki = a_k_contiguous ? e % BK : e / BM;
            const int64_t m = row0 + mi, k = k0 + ki;
            as[ki][mi] = m < g.m && k < k_end ? g.a[m * g.a_row + k * g.a_col] : C(0);
        }
        for (int e = tid; e < BN * BK; e += kThreads) {
            const int ni = b_n_contiguous ? e % BN : e / BK;
            const int ki = b_n_contiguous ? e / BN : e % BK;
            const int64_t n = col0 + ni, k = k0 + ki;
            bs[ki][ni] = n < g.n && k < k_end ? g.b[k * g.b_row + n * g.b_col] : C(0);
        }
        __syncthreads();
#pragma unroll
        for (int ki = 0; ki < BK; ++ki) {
            C a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = as[ki][tr * TM + i];
#pragma unroll
            for (int j = 0; j < TN; ++j) b[j] = bs[ki][(j / 4) * kGroupStride + tc * 4 + j % 4];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int64_t m = row0 + tr * TM + i;
        if (m >= g.m) continue;
#pragma unroll
        for (int j = 0; j < TN; ++j) {
            const int64_t n = col0 + (j / 4) * kGroupStride + tc * 4 + j % 4;
            if (n >= g.n) continue;
            C v = acc[i][j];
            if (args.partials) {
                args.partials[(blockIdx.z * g.m + m) * g.n + n] = v;
                continue;
            }
            if (g.bias) v += g.bias[n];
            C *out = g.c + m * g.c_row + n;
            *out = g.accumulate ? *out + v : v;
        }
    }
}

// C = the parts' sum (in part order) + bias, added to C when accumulating.
template <class C>
__global__ void __launch_bounds__(kThreads)
    gemm_sum_parts_kernel(const __grid_constant__ GemmOperands<C> g, const C *partials, int parts) {
    const int64_t total = g.m * g.n;
    for (int64_t e = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; e < total;
         e += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        C v = C(0);
        for (int z = 0; z < parts; ++z) v += partials[z * total + e];
        const int64_t m = e / g.n, n = e % g.n;
        if (g.bias) v += g.bias[n];
        C *out = g.c + m * g.c_row + n;
        *out = g.accumulate ? *out + v : v;
    }
}

// At most kSkinnyRows rows of A times a B whose columns are contiguous in k (B(l, j) = b[l + j * b_col]):
// a warp per column of C, its lanes splitting k and summing in a fixed shuffle order. B is read once,
// coalesced: the shape of a recurrence step at batch 1 to 8.
constexpr int kSkinnyRows = 8;

template <class C>
__global__ void __launch_bounds__(kThreads) gemm_skinny_kernel(const __grid_constant__ GemmOperands<C> g) {
    const int lane = threadIdx.x % 32;
    const int64_t warps = static_cast<int64_t>(gridDim.x) * (kThreads / 32);
    for (int64_t n = static_cast<int64_t>(blockIdx.x) * (kThreads / 32) + threadIdx.x / 32; n < g.n; n += warps) {
        C acc[kSkinnyRows];
#pragma unroll
        for (int i = 0; i < kSkinnyRows; ++i) acc[i] = C(0);
        const C *column = g.b + n * g.b_col;
        for (int64_t k = lane; k < g.k; k += 32) {
            const C b = column[k];
#pragma unroll
            for (int i = 0; i < kSkinnyRows; ++i)
                if (i < g.m) acc[i] += g.a[i * g.a_row + k * g.a_col] * b;
        }
#pragma unroll
        for (int i = 0; i < kSkinnyRows; ++i) {
#pragma unroll
            for (int offset = 16; offset > 0; offset /= 2) acc[i] += __shfl_xor_sync(0xffffffffu, acc[i], offset);
        }
        if (lane < g.m) {
            C v = C(0);
#pragma unroll
            for (int i = 0; i < kSkinnyRows; ++i)
                if (i == lane) v = acc[i];
            if (g.bias) v += g.bias[n];
            C *out = g.c + lane * g.c_row + n;
            *out = g.accumulate ? *out + v : v;
        }
    }
}

// The same few rows against a B whose rows are contiguous in j (B(l, j) = b[l * b_row + j]): a block per 32
// columns and part of k, a lane per column, its 8 warps splitting the part; the warps' sums add in warp
// order. With `partials`, block (x, y) writes part y's sums to partials[y][m][n] for the parts kernel.
template <class C>
__global__ void __launch_bounds__(kThreads)
    gemm_skinny_rows_kernel(const __grid_constant__ GemmOperands<C> g, int64_t k_part, C *partials) {
    constexpr int kWarps = kThreads / 32;
    static_assert(kSkinnyRows <= kWarps, "warp i writes row i");
    __shared__ C partial[kWarps][kSkinnyRows][32];
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    const int64_t n = static_cast<int64_t>(blockIdx.x) * 32 + lane;
    const int64_t part_begin = blockIdx.y * k_part;
    const int64_t part_end = part_begin + k_part < g.k ? part_begin + k_part : g.k;
    const int64_t slice = (part_end - part_begin + kWarps - 1) / kWarps;
    const int64_t k_begin = part_begin + warp * slice;
    const int64_t k_end = k_begin + slice < part_end ? k_begin + slice : part_end;
    C acc[kSkinnyRows];
#pragma unroll
    for (int i = 0; i < kSkinnyRows; ++i) acc[i] = C(0);
    if (n < g.n) {
#pragma unroll 4
        for (int64_t k = k_begin; k < k_end; ++k) {
            const C b = g.b[k * g.b_row + n];
#pragma unroll
            for (int i = 0; i < kSkinnyRows; ++i)
                if (i < g.m) acc[i] += g.a[i * g.a_row + k * g.a_col] * b;
        }
    }
#pragma unroll
    for (int i = 0; i < kSkinnyRows; ++i) partial[warp][i][lane] = acc[i];
    __syncthreads();
    if (warp >= g.m || n >= g.n) return;  // warp i writes row i
    C v = C(0);
#pragma unroll
    for (int w = 0; w < kWarps; ++w) v += partial[w][warp][lane];
    if (partials) {
        partials[(blockIdx.y * g.m + warp) * g.n + n] = v;
        return;
    }
    if (g.bias) v += g.bias[n];
    C *out = g.c + warp * g.c_row + n;
    *out = g.accumulate ? *out + v : v;
}

template <class C, int BM, int BN, int BK, int TM, int TN>
Status launch_tiles(cudaStream_t stream, const GemmOperands<C> &g, const char *name) {
    const int64_t row_tiles = (g.m + BM - 1) / BM, col_tiles = (g.n + BN - 1) / BN;
    if (row_tiles > 65535 || col_tiles > 0x7fffffff)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "a %lld x %lld matrix product has more tiles than a grid holds",
                    static_cast<long long>(g.m), static_cast<long long>(g.n));
    // Few tiles and a long k: split k so that every SM gets blocks, when the caller gave room for the parts.
    const int64_t tiles = row_tiles * col_tiles, wanted = 4 * current_device_limits().sm_count;
    int64_t parts = 1;
    if (g.scratch && tiles < wanted) {
        parts = std::min<int64_t>({(wanted + tiles - 1) / tiles, (g.k + 4 * BK - 1) / (4 * BK), kGemmMaxSplit,
                                   g.scratch_elements / (g.m * g.n)});
        parts = std::max<int64_t>(parts, 1);
    }
    TileArgs<C> args{g, g.k, nullptr};
    if (parts > 1) {
        args.k_slice = ((g.k + parts - 1) / parts + BK - 1) / BK * BK;
        parts = (g.k + args.k_slice - 1) / args.k_slice;
        args.partials = g.scratch;
    }
    const dim3 grid(static_cast<unsigned>(col_tiles), static_cast<unsigned>(row_tiles), static_cast<unsigned>(parts));
    gemm_simt_kernel<C, BM, BN, BK, TM, TN><<<grid, kThreads, 0, stream>>>(args);
    LIBREDNN_CHECK(check_launch(name));
    if (parts == 1) return CUDNN_STATUS_SUCCESS;
    gemm_sum_parts_kernel<C>
        <<<grid_size(g.m * g.n, 1, kThreads), kThreads, 0, stream>>>(g, g.scratch, static_cast<int>(parts));
    return check_launch("gemm_sum_parts_kernel");
}

}  // namespace

template <class C>
Status gemm_simt(cudaStream_t stream, const GemmOperands<C> &operands) {
    const GemmOperands<C> &g = operands;
    if (g.m <= 0 || g.n <= 0) return CUDNN_STATUS_SUCCESS;
    if (g.m <= kSkinnyRows && g.b_row == 1) {
        const int64_t blocks = std::min<int64_t>((g.n + kThreads / 32 - 1) / (kThreads / 32), 65535);
        gemm_skinny_kernel<C><<<static_cast<unsigned>(blocks), kThreads, 0, stream>>>(g);
        return check_launch("gemm_skinny_kernel");
    }
    if (g.m <= kSkinnyRows && g.b_col == 1) {
        // Few column blocks and a long k: split k over blocks too, when the caller gave room for the parts.
        const int64_t column_blocks = (g.n + 31) / 32, wanted = 4 * current_device_limits().sm_count;
        int64_t parts = 1;
        if (g.scratch && column_blocks < wanted)
            parts = std::max<int64_t>(1, std::min<int64_t>({(wanted + column_blocks - 1) / column_blocks, g.k / 256,
                                                            kGemmMaxSplit, g.scratch_elements / (g.m * g.n)}));
        const int64_t k_part = std::max<int64_t>(1, (g.k + parts - 1) / parts);
        parts = std::max<int64_t>(1, (g.k + k_part - 1) / k_part);
        const dim3 grid(static_cast<unsigned>(column_blocks), static_cast<unsigned>(parts));
        gemm_skinny_rows_kernel<C><<<grid, kThreads, 0, stream>>>(g, k_part, parts > 1 ? g.scratch : nullptr);
        LIBREDNN_CHECK(check_launch("gemm_skinny_rows_kernel"));
        if (parts == 1) return CUDNN_STATUS_SUCCESS;
        gemm_sum_parts_kernel<C>
            <<<grid_size(g.m * g.n, 1, kThreads), kThreads, 0, stream>>>(g, g.scratch, static_cast<int>(parts));
        return check_launch("gemm_sum_parts_kernel");
    }
    // The largest tiles that still give every SM two of them; 16-row tiles for a recurrence step's few rows.
    const int64_t blocks_wanted = 2 * current_device_limits().sm_count;
    if (((g.m + 127) / 128) * ((g.n + 127) / 128) >= blocks_wanted)
        return launch_tiles<C, 128, 128, 8, 8, 8>(stream, g, "gemm_simt_kernel<128x128>");
    if (g.m > 64 && ((g.m + 63) / 64) * ((g.n + 63) / 64) >= blocks_wanted)
        return launch_tiles<C, 64, 64, 16, 4, 4>(stream, g, "gemm_simt_kernel<64x64>");
    return launch_tiles<C, 16, 64, 16, 1, 4>(stream, g, "gemm_simt_kernel<16x64>");
}

template Status gemm_simt<float>(cudaStream_t, const GemmOperands<float> &);
template Status gemm_simt<double>(cudaStream_t, const GemmOperands<double> &);

}  // namespace librednn::cuda
