// Pooling over packed NHWC in 2-D at memory speed (float, half, bfloat16; the channels a multiple of the
// 16-byte vector's lanes, aligned): each thread takes a 16-byte vector of channels. Forward: one thread per
// output vector walks the in-image part of its window. Backward: one thread per input vector gathers
// from the outputs whose windows cover it, as the generic kernel does, in the same order; for the max
// modes a first pass keeps each output's first maximum as its window position (a byte, in memory from
// cudaMallocAsync on the stream), so the gather needs no window walk. Deterministic, no atomics.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the NHWC kernels take this problem with these buffers (else the generic kernels run).
bool pooling_nhwc_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_nhwc(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
