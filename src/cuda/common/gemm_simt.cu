// The strided CUDA-core matrix product (gemm_simt.hpp): a block computes a BM x 64 tile of C, each thread
// TM x 4 of it, walking k in slices of 16 staged through shared memory. Each operand's slice is loaded
// with consecutive threads on whichever index is contiguous in memory, so all three product shapes read
// coalesced. Two tile heights: 64 rows, and 16 for the short, wide products of a recurrence step.
#include "cuda/common/gemm_simt.hpp"

#include "cuda/common/launch_util.hpp"

namespace librednn::cuda {

namespace {

constexpr int kTileN = 64;
constexpr int kTileK = 16;
constexpr int kThreads = 256;

template <class C, int BM, int TM>
__global__ void __launch_bounds__(kThreads) gemm_simt_kernel(const __grid_constant__ GemmOperands<C> g) {
    constexpr int kTN = 4;
    static_assert((BM / TM) * (kTileN / kTN) == kThreads, "one thread per TM x 4 outputs");
    __shared__ C as[kTileK][BM + 1];
    __shared__ C bs[kTileK][kTileN + 1];
    const int64_t row0 = static_cast<int64_t>(blockIdx.y) * BM, col0 = static_cast<int64_t>(blockIdx.x) * kTileN;
    const int tid = threadIdx.x;
    const int tr = tid / (kTileN / kTN), tc = tid % (kTileN / kTN);
    const bool a_k_contiguous = g.a_col == 1, b_n_contiguous = g.b_col == 1;
    C acc[TM][kTN];
#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < kTN; ++j) acc[i][j] = C(0);

    for (int64_t k0 = 0; k0 < g.k; k0 += kTileK) {
        for (int e = tid; e < BM * kTileK; e += kThreads) {
            const int mi = a_k_contiguous ? e / kTileK : e % BM;
            const int ki = a_k_contiguous ? e % kTileK : e / BM;
            const int64_t m = row0 + mi, k = k0 + ki;
            as[ki][mi] = m < g.m && k < g.k ? g.a[m * g.a_row + k * g.a_col] : C(0);
        }
        for (int e = tid; e < kTileN * kTileK; e += kThreads) {
            const int ni = b_n_contiguous ? e % kTileN : e / kTileK;
            const int ki = b_n_contiguous ? e / kTileN : e % kTileK;
            const int64_t n = col0 + ni, k = k0 + ki;
            bs[ki][ni] = n < g.n && k < g.k ? g.b[k * g.b_row + n * g.b_col] : C(0);
        }
        __syncthreads();
#pragma unroll
        for (int ki = 0; ki < kTileK; ++ki) {
            C a[TM], b[kTN];
#pragma unroll
            for (int i = 0; i < TM; ++i) a[i] = as[ki][tr * TM + i];
#pragma unroll
            for (int j = 0; j < kTN; ++j) b[j] = bs[ki][tc + j * (kTileN / kTN)];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < kTN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }
#pragma unroll
    for (int i = 0; i < TM; ++i) {
        const int64_t m = row0 + tr * TM + i;
        if (m >= g.m) continue;
#pragma unroll
        for (int j = 0; j < kTN; ++j) {
            const int64_t n = col0 + tc + j * (kTileN / kTN);
            if (n >= g.n) continue;
            C v = acc[i][j];
            if (g.bias) v += g.bias[n];
            C *out = g.c + m * g.c_row + n;
            *out = g.accumulate ? *out + v : v;
        }
    }
}

}  // namespace

template <class C>
Status gemm_simt(cudaStream_t stream, const GemmOperands<C> &operands) {
    if (operands.m <= 0 || operands.n <= 0) return CUDNN_STATUS_SUCCESS;
    const int64_t col_tiles = (operands.n + kTileN - 1) / kTileN;
    // Short products (a recurrence step's batch rows) get 16-row tiles, so that they still fill the GPU.
    const bool short_tiles =
        operands.m <= 64 || ((operands.m + 63) / 64) * col_tiles < 2 * current_device_limits().sm_count;
    const int64_t bm = short_tiles ? 16 : 64;
    const int64_t row_tiles = (operands.m + bm - 1) / bm;
    if (row_tiles > 65535 || col_tiles > 0x7fffffff)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "a %lld x %lld matrix product has more tiles than a grid holds",
                    static_cast<long long>(operands.m), static_cast<long long>(operands.n));
    const dim3 grid(static_cast<unsigned>(col_tiles), static_cast<unsigned>(row_tiles));
    if (short_tiles) {
        gemm_simt_kernel<C, 16, 1><<<grid, kThreads, 0, stream>>>(operands);
        return check_launch("gemm_simt_kernel<16>");
    }
    gemm_simt_kernel<C, 64, 4><<<grid, kThreads, 0, stream>>>(operands);
    return check_launch("gemm_simt_kernel<64>");
}

template Status gemm_simt<float>(cudaStream_t, const GemmOperands<float> &);
template Status gemm_simt<double>(cudaStream_t, const GemmOperands<double> &);

}  // namespace librednn::cuda
