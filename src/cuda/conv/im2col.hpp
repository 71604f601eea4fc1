// The CUDA backend's cudnnIm2Col (the matrix ops/conv/solvers.hpp describes): one thread per matrix
// element in memory order, so that stores coalesce; each gathers its element of x (any strides) or
// writes zero for the padding. Elements move as bits: every type of 1, 2, 4 or 8 bytes.
#pragma once

#include "core/status.hpp"
#include "ops/conv/solvers.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Runs `problem`'s im2col on `stream`.
Status im2col(cudaStream_t stream, const ConvProblem &problem, const Im2ColBuffers &buffers);

}  // namespace librednn::cuda
