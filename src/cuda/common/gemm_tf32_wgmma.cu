// The TF32 product on Hopper's warpgroup MMA (gemm_tf32_wgmma.hpp). A block of two warpgroups computes a 128 x 128
// tile of C, each warpgroup 64 rows of it in wgmma m64n128k8 steps, the accumulators in registers; two blocks an
// SM. A and B stream 32 k at a time through registers into shared memory, where each factor lands rounded to TF32
// in the layout wgmma reads: [128 rows][32 k], 128-byte rows whose 16-byte chunks are swizzled (wgmma's 128-byte
// mode). wgmma takes tf32 operands only K-major from shared memory, so an operand with m (n) contiguous turns
// K-major on the way (each thread transposes 4 x 4 blocks in registers). Three such stages of A and B: while the
// tensor cores multiply one slice, the threads store the next (loaded during the slice before) and load the one
// after. With k split, each block writes its part and gemm_tf32 adds the parts in order.
#include "cuda/common/gemm_tf32_wgmma.hpp"

#include "cuda/common/launch_util.hpp"

#if LIBREDNN_BUILD_SM90A
#include "cuda/common/async_copy.cuh"
#include "cuda/common/gemm_tf32_tiles.cuh"
#include "cuda/common/mma_tf32.cuh"
#include "cuda/common/wgmma.cuh"
#endif

namespace librednn::cuda {

#if LIBREDNN_BUILD_SM90A

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "gemm_tf32_wgmma.cu compiles for sm_90a only (src/CMakeLists.txt)"
#endif

namespace {

using namespace tf32_tiles;

constexpr int kThreads = kTileThreads;  // two warpgroups
constexpr int kBlocksPerSm = kGemmTf32WgmmaBlocksPerSm;
constexpr int kBlockN = kGemmTf32WgmmaTileN;  // the block's columns of C (its rows: kTileM)
static_assert(kTileM == 128 && kBlockN == 128 && kTileK == 32, "the loaders' and the wgmma's shapes");
constexpr int kStages = 3;
constexpr int kAFloats = kTileM * kTileK, kBFloats = kBlockN * kTileK;
constexpr int kStageFloats = kAFloats + kBFloats;
// The stages, 1024-byte aligned (the swizzle's period) by up to 1 KB of slack.
constexpr size_t kSharedBytes = static_cast<size_t>(kStages) * kStageFloats * sizeof(float) + 1024;

static_assert(kTileK == 32, "a tile's rows are wgmma_swizzled's 32 floats");

// One thread's share of one operand's 128 x 32 slices: four chunks of four neighbours in memory, loaded into
// registers one slice ahead and stored into the wgmma tile rounded to TF32. The operand's element (outer, l) lies
// at p[outer * outer_stride + l * k_stride], one of the strides 1. Every warp load covers four whole 128-byte
// lines, and every 16-byte store phase (8 lanes) eight different chunks of the swizzle:
//   k contiguous: chunk s is row outer_first + 32 s at k l_first..+3 (a warp: 4 rows x 8 chunks); it stores as is.
//   m (n) contiguous: chunk s is rows outer_first..+3 at k l_first + s, a 4 x 4 block the thread stores
//   transposed, as four chunks of k (a warp: 32 rows x 16 k, lane 8 a + 2 b + c taking rows 4 (2 a + c)..+3 and
//   k 4 b..+3).
template <bool KContiguous>
struct SliceLoader {
    static constexpr int kChunks = 4;
    const float *source;  // chunk 0 of the next slice
    int64_t k_stride, chunk_step;
    int outer_left;  // outer indices from the thread's first to the operand's end (at most 2^30)
    int outer_first, l_first;
    float4 v[kChunks];

    __device__ __forceinline__ void init(const float *p, int64_t outer_stride, int64_t k_step, int64_t outer_count,
                                         int64_t outer0, int64_t k_begin, int tid) {
        const int warp = tid >> 5, lane = tid & 31;
        if constexpr (KContiguous) {
            outer_first = 4 * warp + (lane >> 3), l_first = 4 * (lane & 7);
            chunk_step = 32 * outer_stride;
        } else {  // warps 0-3 take k 0-15 of four 32-row blocks, warps 4-7 k 16-31
            const int kc = (lane >> 1) & 3, oc = (lane & 1) + 2 * (lane >> 3);
            outer_first = 32 * (warp % 4) + 4 * oc, l_first = 16 * (warp / 4) + 4 * kc;
            chunk_step = k_step;
        }
        k_stride = k_step;
        outer_left = static_cast<int>(min(max(outer_count - (outer0 + outer_first), int64_t{-1}), int64_t{1} << 30));
        source = p + (outer0 + outer_first) * outer_stride + (k_begin + l_first) * k_step;
    }

    // Loads the next slice's chunks; `k_left` terms of the sum remain from its first k. Zeros past the operand's
    // end and past k_left.
    __device__ __forceinline__ void load(int k_left) {
#pragma unroll
        for (int s = 0; s < kChunks; ++s) {
            int count;
            if constexpr (KContiguous) {
                count = 32 * s < outer_left ? min(max(k_left - l_first, 0), 4) : 0;
            } else {
                count = l_first + s < k_left ? min(max(outer_left, 0), 4) : 0;
            }
            const float *chunk = source + s * chunk_step;
            if (count == 4) {
                v[s] = __ldg(reinterpret_cast<const float4 *>(chunk));
            } else {
                v[s] = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
                if (count > 0) v[s].x = __ldg(chunk);
                if (count > 1) v[s].y = __ldg(chunk + 1);
                if (count > 2) v[s].z = __ldg(chunk + 2);
            }
        }
        source += kTileK * k_stride;
    }

    // Stores the loaded slice into `tile`, each factor rounded to TF32.
    __device__ __forceinline__ void store(float *tile) const {
        const auto tf32 = [](float x) { return __uint_as_float(tf32_bits(x)); };
        if constexpr (KContiguous) {
#pragma unroll
            for (int s = 0; s < kChunks; ++s) {
                const float4 r = make_float4(tf32(v[s].x), tf32(v[s].y), tf32(v[s].z), tf32(v[s].w));
                *reinterpret_cast<float4 *>(tile + wgmma_swizzled(outer_first + 32 * s, l_first >> 2)) = r;
            }
        } else {  // v[s] holds rows outer_first..+3 (x..w) at k l_first + s
            const int c = l_first >> 2;
            *reinterpret_cast<float4 *>(tile + wgmma_swizzled(outer_first, c)) =
                make_float4(tf32(v[0].x), tf32(v[1].x), tf32(v[2].x), tf32(v[3].x));
            *reinterpret_cast<float4 *>(tile + wgmma_swizzled(outer_first + 1, c)) =
                make_float4(tf32(v[0].y), tf32(v[1].y), tf32(v[2].y), tf32(v[3].y));
            *reinterpret_cast<float4 *>(tile + wgmma_swizzled(outer_first + 2, c)) =
                make_float4(tf32(v[0].z), tf32(v[1].z), tf32(v[2].z), tf32(v[3].z));
            *reinterpret_cast<float4 *>(tile + wgmma_swizzled(outer_first + 3, c)) =
                make_float4(tf32(v[0].w), tf32(v[1].w), tf32(v[2].w), tf32(v[3].w));
        }
    }
};

template <bool AKContiguous, bool BKContiguous>
__global__ void __launch_bounds__(kThreads, kBlocksPerSm)
    gemm_tf32_wgmma_kernel(const __grid_constant__ Tf32Args args) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    float *const tiles = reinterpret_cast<float *>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) &
                                                   ~static_cast<uintptr_t>(1023));  // [kStages][A, B]
    const GemmOperands<float> &g = args.g;
    const int tid = threadIdx.x, warpgroup = tid >> 7;
    const int64_t m0 = static_cast<int64_t>(blockIdx.x) * kTileM, n0 = static_cast<int64_t>(blockIdx.y) * kBlockN;
    const int64_t k_begin = static_cast<int64_t>(blockIdx.z) * args.k_per_split;
    const int64_t k_end = min(g.k, k_begin + args.k_per_split);
    const int k_tiles = static_cast<int>((k_end - k_begin + kTileK - 1) / kTileK);
    const int k_count = static_cast<int>(k_end - k_begin);
    SliceLoader<AKContiguous> a_slices;
    SliceLoader<BKContiguous> b_slices;
    a_slices.init(g.a, g.a_row, g.a_col, g.m, m0, k_begin, tid);
    b_slices.init(g.b, g.b_col, g.b_row, g.n, n0, k_begin, tid);
    const auto load = [&](int tile) {  // slices load in order, each once
        a_slices.load(k_count - tile * kTileK);
        b_slices.load(k_count - tile * kTileK);
    };
    const auto store = [&](int tile) {
        float *const stage = tiles + (tile % kStages) * kStageFloats;
        a_slices.store(stage);
        b_slices.store(stage + kAFloats);
    };

    // The first step of the sum writes the accumulators (keep_d 0): no other instruction defines them before
    // the products, which would make the compiler serialise the wgmma pipeline. Every block has a slice.
    float acc[64];

    load(0);
    store(0);
    if (k_tiles > 1) load(1);
    fence_proxy_async();
    __syncthreads();
    for (int tile = 0; tile < k_tiles; ++tile) {
        const float *const ta = tiles + (tile % kStages) * kStageFloats, *const tb = ta + kAFloats;
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kTileK; kk += 8)  // a step of 8 k is 32 bytes further along the swizzled rows
            wgmma_m64n128k8(acc, wgmma_descriptor(ta + warpgroup * 64 * kTileK + kk), wgmma_descriptor(tb + kk),
                            tile > 0 || kk > 0);
        wgmma_commit();
        // The stage stored next was last read two slices back, waited for by every warpgroup before the barrier
        // that ended the last slice.
        if (tile + 1 < k_tiles) store(tile + 1);
        if (tile + 2 < k_tiles) load(tile + 2);
        wgmma_wait<1>();
        fence_proxy_async();
        __syncthreads();
    }
    wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < 64; ++i) wgmma_settle(acc[i]);

    const int lane = tid & 31, group = lane >> 2, quad = lane & 3;
    const int64_t row0 = m0 + warpgroup * 64 + ((tid >> 5) & 3) * 16 + group;
#pragma unroll
    for (int i = 0; i < 64; ++i) {
        const int64_t r = row0 + ((i & 2) ? 8 : 0), c = n0 + (i >> 2) * 8 + 2 * quad + (i & 1);
        write_sum(args, r, c, acc[i]);
    }
}

template <bool AK, bool BK>
Status launch(cudaStream_t stream, const Tf32Args &args, int splits) {
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(&gemm_tf32_wgmma_kernel<AK, BK>));
    if (!opt_in.allow(kSharedBytes)) return CUDNN_STATUS_NOT_SUPPORTED;
    const GemmOperands<float> &g = args.g;
    const dim3 grid(static_cast<unsigned>((g.m + kTileM - 1) / kTileM),
                    static_cast<unsigned>((g.n + kBlockN - 1) / kBlockN), static_cast<unsigned>(splits));
    gemm_tf32_wgmma_kernel<AK, BK><<<grid, kThreads, kSharedBytes, stream>>>(args);
    return check_launch("gemm_tf32_wgmma_kernel");
}

// Why the kernel cannot run (query_answer's index; kAnswers[0] when it can).
constexpr const char *kAnswers[] = {
    nullptr,
    "wgmma is an sm_90a instruction: it runs on GPUs of compute capability 9.0 only",
    "the device gives a block less shared memory than the wgmma kernel's stages take",
    "no sm_90a image of the wgmma kernel loads on this device",
};

int query_answer() {
    const DeviceLimits limits = current_device_limits();
    if (limits.compute_major != 9 || limits.compute_minor != 0) return 1;
    if (static_cast<size_t>(limits.max_dynamic_shared_bytes) < kSharedBytes) return 2;
    cudaFuncAttributes attributes;
    if (cudaFuncGetAttributes(&attributes, reinterpret_cast<const void *>(&gemm_tf32_wgmma_kernel<true, true>)) !=
        cudaSuccess) {
        cudaGetLastError();
        return 3;
    }
    return 0;
}

}  // namespace

bool gemm_tf32_wgmma_available(const char **reason) {
    static const bool off = switched_off("LIBREDNN_GEMM_TF32_WGMMA");
    if (off) {
        if (reason != nullptr) *reason = "switched off by LIBREDNN_GEMM_TF32_WGMMA=0";
        return false;
    }
    static const DeviceQuestion runs(query_answer, kAnswers);
    return runs.ask(reason);
}

Status gemm_tf32_wgmma(cudaStream_t stream, const tf32_tiles::Tf32Args &args, int splits) {
    const GemmOperands<float> &o = args.g;
    const bool a_k = unit_stride_rows(o.a_col, o.a_row), b_k = unit_stride_rows(o.b_row, o.b_col);
    if (a_k) return b_k ? launch<true, true>(stream, args, splits) : launch<true, false>(stream, args, splits);
    return b_k ? launch<false, true>(stream, args, splits) : launch<false, false>(stream, args, splits);
}

#else  // built without sm_90a

bool gemm_tf32_wgmma_available(const char **reason) {
    if (reason != nullptr) *reason = "this build has no sm_90a kernels (its CUDA architectures do not include 90)";
    return false;
}

Status gemm_tf32_wgmma(cudaStream_t, const tf32_tiles::Tf32Args &, int) { return CUDNN_STATUS_NOT_SUPPORTED; }

#endif

}  // namespace librednn::cuda
