// The CUDA backend's general convolution: implicit GEMM in every direction, any geometry of 1 to 3
// spatial dims (groups, padding, strides, dilation, both modes), any strides (NCHW_VECT_C too), on
// tensor cores where the types allow. Each direction is one matrix product whose operands are gathered
// from the tensors as the tiles load (nothing materialised):
//   forward          y[(n, p)][k]      = sum over (tap, c) of x[n][c][in(p, tap)] * w[k][c][tap]
//   backward data    dx[(n, q)][c]     = sum over (tap, k) of dy[n][k][out(q, tap)] * w[k][c][tap]
//   backward filter  dw[k][(tap, c)]   = sum over (n, p) of dy[n][k][p] * x[n][c][in(p, tap)]
// per group. The filter gradient splits its long sum over blocks and adds the parts in a fixed order
// (a second kernel): every direction is deterministic.
#pragma once

#include "core/status.hpp"
#include "ops/conv/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace librednn::cuda {

// How the matrix product computes: tensor cores on half or bfloat16 (float accumulation), on TF32
// (float data whose math type allows it), or plain multiply-adds in float, double or int32.
enum class ConvMath { f16_tensor, bf16_tensor, tf32_tensor, f32_fma, f64_fma, i8_fma };

const char *conv_math_name(ConvMath math);

// The math this kernel uses for `problem`, or false (with `reason`) when the kernel does not take it
// (more than 3 spatial dims, int8 outside the forward direction). The int8 configurations include the
// vectorised ones (INT8x4, UINT8x4, INT8x32 in NCHW_VECT_C), read and written in place.
bool implicit_gemm_math(const ConvProblem &problem, ConvMath *math, const char **reason);

// How the forward finds the input element of each (output position, filter tap): worked out from the
// tap number as the tiles load (IMPLICIT_GEMM, no workspace), or read from a table of every tap's
// displacements and offset that a first kernel builds in the workspace (IMPLICIT_PRECOMP_GEMM). The
// other directions always work it out.
enum class ConvIndexing { computed, precomputed };

// The workspace it needs (the filter gradient's partial sums, the forward's tap table; 0 otherwise), on
// the current device.
size_t implicit_gemm_workspace_bytes(const ConvProblem &problem, ConvIndexing indexing = ConvIndexing::computed);

// Runs `problem` on `stream`: alpha, beta and the fused epilogue applied.
Status implicit_gemm(cudaStream_t stream, const ConvProblem &problem, const ConvBuffers &buffers, void *workspace,
                     size_t workspace_bytes, ConvIndexing indexing = ConvIndexing::computed);

}  // namespace librednn::cuda
