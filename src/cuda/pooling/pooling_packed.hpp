// Pooling over packed tensors in 2-D at memory speed (float, half, bfloat16): NHWC with the channels a
// multiple of the 16-byte vector's lanes, aligned (each thread takes a 16-byte vector of channels), and
// NCHW (seen as NHWC with one channel and N x C images: each thread takes one element, consecutive threads
// consecutive columns). Forward: one thread per output vector walks the in-image part of its window.
// Backward: one thread per input vector gathers from the outputs whose windows cover it, as the generic
// kernel does, in the same order; for the max modes a first pass keeps each output's first maximum as its
// window position (a byte, in memory from cudaMallocAsync on the stream), so the gather needs no window
// walk (over 16-bit NHWC with 2x2 or 3x3 windows the paired argmax, pooling_pairs.hpp; 16-bit NHWC with 3x3
// windows at stride 2, paddings of one parity: one thread gathers a 2 x 2 group of inputs;
// LIBREDNN_POOLING_GROUPS=0 leaves those to the input-a-thread gather, to compare). Deterministic, no atomics.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace librednn::cuda {

// Whether x and y (and dy, dx backward) are 4-d packed NHWC / packed NCHW tensors (1-wide dims count as both).
bool pooling_packed_nhwc(const PoolingProblem &problem);
bool pooling_packed_nchw(const PoolingProblem &problem);

// Whether `pointer` is a multiple of `bytes` (or null: a buffer the pass does not use).
bool aligned_or_null(const void *pointer, size_t bytes);

// Whether the packed kernels take this problem with these buffers (else the generic kernels run).
bool pooling_packed_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_packed(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
