// gemm_tf32's kernel for operands that arrive K-major and already TF32 (GemmOperands::tf32_rounded: every factor's
// low 13 bits zero, as gemm_tf32 would round it) or as half factors (GemmOperands::f16_factors), on Hopper (compute
// capability 9.0): the tensor memory accelerator copies tiles of A and B into shared memory in wgmma's swizzled layout,
// with no thread touching them, several slices ahead of the warpgroup MMA. The same product and the same numbers as the
// other two kernels (the factors as given, sums in float). Its file compiles for sm_90a alone, as gemm_tf32_wgmma.cu
// does; elsewhere it holds no kernel and gemm_tf32_tma_available() is false. gemm_tf32() decides which kernel runs.
#pragma once

#include "core/status.hpp"
#include "cuda/common/gemm_simt.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

namespace tf32_tiles {
struct Tf32Args;  // gemm_tf32_tiles.cuh
}

// Whether the current device runs the kernel: built for sm_90a, a device of compute capability 9.0 with the
// shared memory a block takes, a driver that encodes tensor maps; else false with a sentence in `reason`.
// LIBREDNN_GEMM_TF32_TMA=0 (read once) makes it false: a measurement switch.
bool gemm_tf32_tma_available(const char **reason = nullptr);

// One block an SM, each computing a 128 x 256 tile of C: what gemm_tf32's split plan counts on.
constexpr int kGemmTf32TmaBlocksPerSm = 1;
constexpr int kGemmTf32TmaTileN = 256;
// The k of a slice of half factors (GemmOperands::f16_factors): a split's part of k is a multiple of it.
constexpr int kGemmF16TmaSliceK = 64;

// Queues the product on `stream` (gemm_tf32_takes(args.g) holds with A's and B's k at unit stride, the factors
// TF32 already or halves, gemm_tf32_tma_available() true), as gemm_tf32_wgmma does: a grid of `splits` parts of k, each
// args.k_per_split long (a multiple of 32; of kGemmF16TmaSliceK for halves), each part's sums into args.partials
// when splits > 1.
Status gemm_tf32_tma(cudaStream_t stream, const tf32_tiles::Tf32Args &args, int splits);

}  // namespace librednn::cuda
