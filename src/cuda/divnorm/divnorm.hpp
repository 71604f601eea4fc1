// Divisive normalisation on the GPU (the kernels behind cudnnDivisiveNormalizationForward/Backward):
// 4-d and 5-d tensors of any strides, float, double and half (computed in float, double for double).
// - Forward: one thread per output, its window summed afresh.
// - Backward: one block per tile of one image's channel (16x16, or 4x8x8 in 3-d, smaller when the
//   windows are wide). The block first computes g_p = dy_p x_p s_p^(-beta - 1) over the tile and the
//   halo of positions whose windows reach into it, each window summed afresh, into shared memory (and
//   dMeans for the tile's own positions); then each thread gathers dx_q from the g of the positions
//   whose window holds q. Halo positions are computed by both neighbouring tiles: no global scratch, no
//   atomics, deterministic.
// In place, the inputs an output aliases are first copied into temp/temp2 (plan_divnorm_buffers) on the
// handle's stream. Correct first; not tuned.
#pragma once

#include "core/status.hpp"
#include "ops/divnorm/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *divnorm_unsupported_reason(const DivNormProblem &problem);

Status divnorm(cudaStream_t stream, const DivNormProblem &problem, const DivNormBuffers &buffers);

}  // namespace librednn::cuda
