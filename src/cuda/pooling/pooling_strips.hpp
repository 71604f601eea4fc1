// 3x3 pooling at stride 2 with padding 1 (ResNet's stem, most CNNs' max pooling) at memory speed, over packed
// NCHW with widths a multiple of 8 and packed NHWC with whole 16-byte vectors of channels (float, half,
// bfloat16). A thread takes a strip of output rows and a few output columns (NCHW: 4, each input row's part
// read as the column before them and one 8-element vector; NHWC: 2 forward, 1 backward, 16-byte vectors of
// channels), reads each input row of its strip once and folds it into the one or two outputs whose windows
// hold it, each window in row-major order as the packed kernels fold it (the same maxima, the same sums in
// the same order).
// Forward: the max modes and both averages. Backward, the max modes: a thread owns input rows 2*oh, 2*oh + 1
// and columns 2*ow, 2*ow + 1 of its outputs (with padding 1 every input has an owner); it finds the first
// maximum of its outputs' windows and of those of the next output row and column (whose windows reach its
// last input row and column) and sums, for each owned input, the dy of the windows whose first maximum it is,
// in the gather's order (output rows, then columns): one pass over x and dy, no argmax buffer.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the strip kernels take this problem with these buffers.
bool pooling_strips_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_strips(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
