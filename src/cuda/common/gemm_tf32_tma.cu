// The TF32 product from K-major, already-rounded operands on Hopper's tensor memory accelerator and warpgroup MMA
// (gemm_tf32_tma.hpp), and the same product of half factors. A block of three warpgroups computes a 128 x 256 tile
// of C: one thread of the first issues the tensor copies, 128 bytes of k (32 TF32 or 64 half factors) of A's 128
// rows and of B's 256 columns a slice (swizzled as wgmma reads them), into four stages of shared memory; the other
// two each multiply 64 rows of the tile by the whole slice (wgmma m64n256k8, or m64n256k16 for halves: the same 32
// bytes of each row a step; accumulators in registers) as soon as its stage lands, and give the stage back once their
// products have read it. Copies and products never wait on a barrier of the whole block. Parts of a tile past
// the matrices' ends arrive as zeros. With k split, each block writes its part and gemm_tf32 adds the parts in
// order.
#include "cuda/common/gemm_tf32_tma.hpp"

#include "cuda/common/launch_util.hpp"

#if LIBREDNN_BUILD_SM90A
#include "cuda/common/async_copy.cuh"
#include "cuda/common/gemm_tf32_tiles.cuh"
#include "cuda/common/wgmma.cuh"

#include <cuda.h>  // CUtensorMap and its encoder's signature; the encoder itself comes from the driver at run time
#endif

namespace librednn::cuda {

#if LIBREDNN_BUILD_SM90A

#if defined(__CUDA_ARCH__) && !defined(__CUDA_ARCH_FEAT_SM90_ALL)
#error "gemm_tf32_tma.cu compiles for sm_90a only (src/CMakeLists.txt)"
#endif

namespace {

using namespace tf32_tiles;

constexpr int kConsumers = 2;                     // warpgroups multiplying, after the copying one
constexpr int kThreads = 128 * (1 + kConsumers);  // three warpgroups
constexpr int kBlockM = 64 * kConsumers;          // 128 rows of C
constexpr int kBlockN = kGemmTf32TmaTileN;        // 256 columns
constexpr int kRowFloats = 32;                    // 128 bytes of k: one swizzled row
constexpr int kStages = 4;
static_assert(kBlockM == kTileM && kRowFloats == kTileK, "gemm_tf32's split plan counts on these tiles");
// The k of a slice: one 128-byte row of each factor type (TF32: 32, half: 64 = kGemmF16TmaSliceK).
template <bool kHalf>
constexpr int kSliceK = kHalf ? 2 * kRowFloats : kRowFloats;
static_assert(kSliceK<true> == kGemmF16TmaSliceK, "gemm_tf32's split plan for halves counts on this slice");
constexpr int kAFloats = kBlockM * kRowFloats, kBFloats = kBlockN * kRowFloats, kStageFloats = kAFloats + kBFloats;
constexpr uint32_t kStageBytes = kStageFloats * sizeof(float);
// The stages 1024-byte aligned (the swizzle's period) by up to 1 KB of slack, then two barriers a stage.
constexpr size_t kSharedBytes = static_cast<size_t>(kStages) * kStageBytes + 1024 + 2 * kStages * sizeof(uint64_t);

template <bool kHalf>
__global__ void __launch_bounds__(kThreads, 1)
    gemm_tf32_tma_kernel(const __grid_constant__ CUtensorMap a_map, const __grid_constant__ CUtensorMap b_map,
                         const __grid_constant__ Tf32Args args) {
    extern __shared__ __align__(16) unsigned char shared_bytes[];
    float *const tiles = reinterpret_cast<float *>((reinterpret_cast<uintptr_t>(shared_bytes) + 1023) &
                                                   ~static_cast<uintptr_t>(1023));          // [kStages][A, B]
    uint64_t *const landed = reinterpret_cast<uint64_t *>(tiles + kStages * kStageFloats);  // a stage's copies done
    uint64_t *const released = landed + kStages;  // a stage read by both warpgroups' products
    const int tid = threadIdx.x, group = tid >> 7;
    const int m0 = static_cast<int>(blockIdx.x) * kBlockM, n0 = static_cast<int>(blockIdx.y) * kBlockN;
    const int64_t k_begin = static_cast<int64_t>(blockIdx.z) * args.k_per_split;
    const int64_t k_end = min(args.g.k, k_begin + args.k_per_split);
    constexpr int kK = kSliceK<kHalf>;
    const int slices = static_cast<int>((k_end - k_begin + kK - 1) / kK);  // every block has one
    if (tid == 0) {
        for (int s = 0; s < kStages; ++s) {
            transaction_barrier_init(&landed[s]);
            arrival_barrier_init(&released[s], kConsumers);
        }
    }
    __syncthreads();

    if (group == 0) {  // the copying warpgroup: one thread issues every copy, the rest have nothing to do
        if (tid != 0) return;
        for (int t = 0; t < slices; ++t) {
            const int s = t % kStages;
            // Slice t reuses the stage of slice t - kStages: wait until both warpgroups gave it back (that
            // stage's (t / kStages - 1)-th release).
            if (t >= kStages) transaction_barrier_wait(&released[s], (t / kStages - 1) & 1);
            float *const stage = tiles + s * kStageFloats;
            transaction_barrier_expect(&landed[s], kStageBytes);
            const int k = static_cast<int>(k_begin) + t * kK;
            tensor_copy_2d_to_shared(stage, &a_map, k, m0, &landed[s]);
            tensor_copy_2d_to_shared(stage + kAFloats, &b_map, k, n0, &landed[s]);
        }
        return;
    }

    // A multiplying warpgroup: rows 64 (group - 1) on of the tile. The first step of the sum writes the
    // accumulators (keep_d 0), so no other instruction defines them before the products.
    const int rows = (group - 1) * 64;
    float acc[128];
    for (int t = 0; t < slices; ++t) {
        const int s = t % kStages;
        transaction_barrier_wait(&landed[s], (t / kStages) & 1);
        const float *const ta = tiles + s * kStageFloats + rows * kRowFloats, *const tb =
                                                                                  tiles + s * kStageFloats + kAFloats;
        wgmma_fence();
#pragma unroll
        for (int kk = 0; kk < kRowFloats; kk += 8) {  // a step is 32 bytes further along the swizzled rows
            if constexpr (kHalf)
                wgmma_m64n256k16_f16(acc, wgmma_descriptor(ta + kk), wgmma_descriptor(tb + kk), t > 0 || kk > 0);
            else
                wgmma_m64n256k8(acc, wgmma_descriptor(ta + kk), wgmma_descriptor(tb + kk), t > 0 || kk > 0);
        }
        wgmma_commit();
        // Once at most this slice's products are in flight, the last slice's stage has been read: give it back.
        wgmma_wait<1>();
        if (t > 0 && (tid & 127) == 0) barrier_arrive(&released[(t - 1) % kStages]);
    }
    wgmma_wait<0>();
#pragma unroll
    for (int i = 0; i < 128; ++i) wgmma_settle(acc[i]);

    if constexpr (kHalf) {  // the factors' scales undone here, or where split parts are added (gemm_tf32.cu)
        if (args.partials == nullptr) {
            const F16Unscale unscale(args.g);
#pragma unroll
            for (int i = 0; i < 128; ++i) acc[i] = unscale(acc[i]);
        }
    }
    const int lane = tid & 31, row_group = lane >> 2, quad = lane & 3;
    const int64_t row0 = m0 + rows + ((tid >> 5) & 3) * 16 + row_group;
#pragma unroll
    for (int i = 0; i < 128; ++i) {
        const int64_t r = row0 + ((i & 2) ? 8 : 0), c = n0 + (i >> 2) * 8 + 2 * quad + (i & 1);
        write_sum(args, r, c, acc[i]);
    }
}

// The driver's tensor-map encoder, looked up once (nullptr where the driver has none).
using EncodeTiled = CUresult (*)(CUtensorMap *, CUtensorMapDataType, cuuint32_t, void *, const cuuint64_t *,
                                 const cuuint64_t *, const cuuint32_t *, const cuuint32_t *, CUtensorMapInterleave,
                                 CUtensorMapSwizzle, CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

EncodeTiled tensor_map_encoder() {
    static const EncodeTiled encoder = [] {
        void *function = nullptr;
        cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
#if CUDART_VERSION >= 12050
        const cudaError_t looked_up =
            cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &function, 12000, cudaEnableDefault, &found);
#else  // the by-version lookup came with CUDA 12.5
        const cudaError_t looked_up =
            cudaGetDriverEntryPoint("cuTensorMapEncodeTiled", &function, cudaEnableDefault, &found);
#endif
        if (looked_up != cudaSuccess || found != cudaDriverEntryPointSuccess) {
            cudaGetLastError();
            return EncodeTiled{nullptr};
        }
        return reinterpret_cast<EncodeTiled>(function);
    }();
    return encoder;
}

// The map of a K-major operand: `outer` rows of k factors (floats, or halves), `row_stride` factors apart, copied in
// boxes of `box_rows` rows by 128 bytes of k, 128-byte swizzled; what lies past k or the rows reads as zeros.
bool encode_operand(CUtensorMap *map, bool half, const float *base, int64_t k, int64_t outer, int64_t row_stride,
                    uint32_t box_rows) {
    const size_t factor = half ? 2 : sizeof(float);
    const cuuint64_t dims[2] = {static_cast<cuuint64_t>(k), static_cast<cuuint64_t>(outer)};
    const cuuint64_t strides[1] = {static_cast<cuuint64_t>(row_stride) * factor};
    const cuuint32_t box[2] = {static_cast<cuuint32_t>(128 / factor), box_rows}, element_strides[2] = {1, 1};
    return tensor_map_encoder()(map, half ? CU_TENSOR_MAP_DATA_TYPE_FLOAT16 : CU_TENSOR_MAP_DATA_TYPE_FLOAT32, 2,
                                const_cast<float *>(base), dims, strides, box, element_strides,
                                CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE) == CUDA_SUCCESS;
}

// Why the kernel cannot run (query_answer's index; kAnswers[0] when it can).
constexpr const char *kAnswers[] = {
    nullptr,
    "the tensor memory accelerator's kernel uses wgmma, an sm_90a instruction: it runs on GPUs of compute "
    "capability 9.0 only",
    "the device gives a block less shared memory than the kernel's stages take",
    "no sm_90a image of the kernel loads on this device",
    "the CUDA driver has no tensor-map encoder (cuTensorMapEncodeTiled)",
};

int query_answer() {
    const DeviceLimits limits = current_device_limits();
    if (limits.compute_major != 9 || limits.compute_minor != 0) return 1;
    if (static_cast<size_t>(limits.max_dynamic_shared_bytes) < kSharedBytes) return 2;
    cudaFuncAttributes attributes;
    if (cudaFuncGetAttributes(&attributes, reinterpret_cast<const void *>(&gemm_tf32_tma_kernel<false>)) !=
        cudaSuccess) {
        cudaGetLastError();
        return 3;
    }
    return tensor_map_encoder() != nullptr ? 0 : 4;
}

}  // namespace

bool gemm_tf32_tma_available(const char **reason) {
    static const bool off = switched_off("LIBREDNN_GEMM_TF32_TMA");
    if (off) {
        if (reason != nullptr) *reason = "switched off by LIBREDNN_GEMM_TF32_TMA=0";
        return false;
    }
    static const DeviceQuestion runs(query_answer, kAnswers);
    return runs.ask(reason);
}

Status gemm_tf32_tma(cudaStream_t stream, const Tf32Args &args, int splits) {
    static const SharedMemoryOptIn opt_in(reinterpret_cast<const void *>(&gemm_tf32_tma_kernel<false>));
    static const SharedMemoryOptIn opt_in_half(reinterpret_cast<const void *>(&gemm_tf32_tma_kernel<true>));
    const GemmOperands<float> &g = args.g;
    if (!(g.f16_factors ? opt_in_half : opt_in).allow(kSharedBytes)) return CUDNN_STATUS_NOT_SUPPORTED;
    CUtensorMap a_map, b_map;  // A(i, l) at a[i * a_row + l], B(l, j) at b[l + j * b_col]
    if (!encode_operand(&a_map, g.f16_factors, g.a, g.k, g.m, g.a_row, kBlockM) ||
        !encode_operand(&b_map, g.f16_factors, g.b, g.k, g.n, g.b_col, kBlockN))
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "gemm_tf32 on the tensor memory accelerator: the driver turned down "
                    "a tensor map (m %lld, n %lld, k %lld)",
                    static_cast<long long>(g.m), static_cast<long long>(g.n), static_cast<long long>(g.k));
    const dim3 grid(static_cast<unsigned>((g.m + kBlockM - 1) / kBlockM),
                    static_cast<unsigned>((g.n + kBlockN - 1) / kBlockN), static_cast<unsigned>(splits));
    if (g.f16_factors)
        gemm_tf32_tma_kernel<true><<<grid, kThreads, kSharedBytes, stream>>>(a_map, b_map, args);
    else
        gemm_tf32_tma_kernel<false><<<grid, kThreads, kSharedBytes, stream>>>(a_map, b_map, args);
    return check_launch("gemm_tf32_tma_kernel");
}

#else  // built without sm_90a

bool gemm_tf32_tma_available(const char **reason) {
    if (reason != nullptr) *reason = "this build has no sm_90a kernels (its CUDA architectures do not include 90)";
    return false;
}

Status gemm_tf32_tma(cudaStream_t, const tf32_tiles::Tf32Args &, int) { return CUDNN_STATUS_NOT_SUPPORTED; }

#endif

}  // namespace librednn::cuda
