// 3x3 pooling at stride 2 with padding 1 (ResNet's stem, most CNNs' max pooling) at memory speed, over packed
// NCHW with widths a multiple of 8 (float, half, bfloat16). A thread takes a strip of 8 output rows and 4
// output columns, reads each input row of its strip once (the column before its 8 input columns, and an
// 8-element vector of them) and folds it into the one or two outputs whose windows hold it, each window in
// row-major order as the packed kernels fold it (the same maxima, the same sums in the same order).
// Forward: the max modes and both averages. Backward, the max modes: a thread owns input rows 2*oh, 2*oh + 1
// and columns 2*ow, 2*ow + 1 of its outputs (with padding 1 every input has an owner); it finds the first
// maximum of its outputs' windows and of those of the next output row and column (whose windows reach its
// last input row and column) and sums, for each owned input, the dy of the windows whose first maximum it is,
// in the gather's order (output rows, then columns): one pass over x and dy, no argmax buffer.
// (NHWC stays with the packed kernels: strips of 8-byte channel vectors were slower there.)
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the strip kernels take this problem with these buffers.
bool pooling_strips_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_strips(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
