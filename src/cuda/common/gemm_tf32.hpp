// A dense matrix product of float operands on TF32 tensor cores: C = beta * C + A B + bias, operands as
// gemm_simt takes them (GemmOperands), each with one index at unit stride and 16-byte rows, so that tiles
// stream into shared memory several slices ahead of the products. The RNN's products over every time step run
// here (docs/RNN.md): on mma.sync, and on Hopper on wgmma (gemm_tf32_wgmma.hpp, gemm_tf32_tma.hpp); gemm_simt
// and the convolutions' implicit GEMM take what this turns down. Each factor rounds to TF32 (to nearest; or came
// rounded) and sums stay float, on every kernel: a product is off by up to 2^-10 of the sum of its terms'
// magnitudes on top of float's rounding. A long k splits over blocks whose parts add in a fixed order (a second
// kernel): deterministic.
#pragma once

#include "core/status.hpp"
#include "cuda/common/gemm_simt.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace librednn::cuda {

// Whether gemm_tf32 takes the operands: A with k or m at unit stride, B with k or n at unit stride, the
// other stride a multiple of 4 floats, A and B 16-byte aligned, every size below 2^31 and none empty.
// False with a sentence in `reason` otherwise.
bool gemm_tf32_takes(const GemmOperands<float> &operands, const char **reason);

// The workspace that lets it split k over blocks where the tiles alone would leave SMs idle, on the current
// device (0: it never splits this product). With less it runs unsplit, as fast as the tiles allow.
size_t gemm_tf32_workspace_bytes(int64_t m, int64_t n, int64_t k);

// Which kernel runs the product. Chosen, on a GPU of compute capability 9.0 (built for sm_90a): the tensor memory
// accelerator's kernel (gemm_tf32_tma.hpp) where A and B have k contiguous and operands.tf32_rounded holds, else
// the wgmma kernel (gemm_tf32_wgmma.hpp) where A has k contiguous; mma.sync otherwise and elsewhere (why:
// gemm_tf32.cu). Half factors (GemmOperands::f16_factors) run on the tensor memory accelerator's kernel alone: the
// caller asks gemm_tf32_tma_available() first. The tests ask for each; asking for one where it cannot run answers
// NOT_SUPPORTED.
enum class Tf32Kernel { chosen, mma_sync, wgmma, tma };

// The kernel Tf32Kernel::chosen runs for these operands on the current device.
Tf32Kernel gemm_tf32_chosen_kernel(const GemmOperands<float> &operands);

// Queues the product on `stream` (the caller checked gemm_tf32_takes); the split parts go to `workspace`.
Status gemm_tf32(cudaStream_t stream, const GemmOperands<float> &operands, void *workspace, size_t workspace_bytes,
                 Tf32Kernel requested = Tf32Kernel::chosen);

}  // namespace librednn::cuda
