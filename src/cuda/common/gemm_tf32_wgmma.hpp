// gemm_tf32's kernel for Hopper (compute capability 9.0): the same product, the same TF32 rounding (each factor to
// nearest, sums in float), on the warpgroup MMA (wgmma, an sm_90a instruction with no portable form). Its file
// compiles for sm_90a alone, where the build's CUDA architectures include 90 (src/CMakeLists.txt,
// LIBREDNN_BUILD_SM90A); elsewhere it holds no kernel and gemm_tf32_wgmma_available() is false. gemm_tf32() decides
// which kernel runs.
#pragma once

#include "core/status.hpp"
#include "cuda/common/gemm_simt.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace librednn::cuda {

namespace tf32_tiles {
struct Tf32Args;  // gemm_tf32_tiles.cuh
}

// Whether the current device runs the wgmma kernel: built for sm_90a, a device of compute capability 9.0 with
// the shared memory a block of it takes; else false with a sentence in `reason`. LIBREDNN_GEMM_TF32_WGMMA=0 (read
// once) makes it false: a measurement switch.
bool gemm_tf32_wgmma_available(const char **reason = nullptr);

// The most blocks of the wgmma kernel an SM holds, and a block's columns of C (its rows: 128): what gemm_tf32's
// split plan counts on.
constexpr int kGemmTf32WgmmaBlocksPerSm = 2;
constexpr int kGemmTf32WgmmaTileN = 128;

// Queues the product on `stream` (gemm_tf32_takes(args.g) holds, gemm_tf32_wgmma_available() too): 128 x 128
// tiles of C over a grid of `splits` parts of k, each args.k_per_split long (a multiple of 32), each part's sums
// into args.partials [split][m][n] when splits > 1 (gemm_tf32 adds them), else the finished C.
Status gemm_tf32_wgmma(cudaStream_t stream, const tf32_tiles::Tf32Args &args, int splits);

}  // namespace librednn::cuda
