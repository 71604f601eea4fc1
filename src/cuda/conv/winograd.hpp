// The CUDA backend's Winograd convolutions (ops/conv/winograd.hpp has the tiles and the algebra), float
// arithmetic on half or float data, plain multiply-adds (no tensor cores), deterministic:
//   WINOGRAD           one fused kernel per call: a block takes 32 tiles of an image and 32 output
//                      channels, transforms the inputs and filters of 8 input channels at a time into
//                      shared memory, multiplies and sums them, and transforms back; no workspace.
//   WINOGRAD_NONFUSED  a kernel per pass through the workspace: filters (G g G^T), input tiles
//                      (B^T d B), a batched product per (group, xi, nu), output tiles (A^T M A).
//   backward filter    x's windows (B^T x B) and dy's tiles (A dy A^T), a batched product over the
//                      tiles of every image, then G^T M G.
// Backward data runs the forward kernels on dy with the filter rotated and its channels transposed.
#pragma once

#include "core/status.hpp"
#include "ops/common/solver.hpp"
#include "ops/conv/problem.hpp"
#include "ops/conv/winograd.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace librednn::cuda {

// The CUDA kernels' own limits beyond cuDNN's rules (grid dims): yes, or why not.
Applicability winograd_kernel_limits(const ConvProblem &problem, WinogradVariant variant);

// The workspace a run needs (0 for WINOGRAD), the same the run checks.
size_t winograd_workspace_bytes(const ConvProblem &problem, WinogradVariant variant);

// Runs `problem` (an applicable one) on `stream`: alpha, beta and the fused epilogue applied.
Status winograd(cudaStream_t stream, const ConvProblem &problem, const ConvBuffers &buffers, WinogradVariant variant,
                void *workspace, size_t workspace_bytes);

}  // namespace librednn::cuda
