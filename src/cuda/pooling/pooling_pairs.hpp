// Max pooling forward over packed NHWC half and bfloat16 with 2x2 or 3x3 windows (VGG's and ResNet's max
// pooling), any stride and padding, at memory speed. A thread takes one output's 16-byte vector of 8
// channels: it issues the window's loads (at most nine) before it uses any, then folds them two channels an
// instruction (__hmax2, or __hmax2_nan where NaN propagates). The maximum is exact in the storage type, so the
// result equals the packed kernels' (which fold each channel in float) but for the sign of a zero maximum;
// a window of NaNs gives 0 where NaN is skipped, as there. The max backward's argmax pass over the same
// problems (pooling_packed.hpp) takes the same loads and maxima, then each lane's first tap equal to its
// maximum, two lanes a compare.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

// Whether the paired kernels take this problem with these buffers.
bool pooling_pairs_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_pairs(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

// Whether the paired argmax pass takes this backward problem (the packed kernels' gather then reads it).
bool pooling_pairs_argmax_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

// Each output element's window position of its first maximum, a byte (255: none), into `argmax`
// (y's element count, 8-byte aligned), as the packed kernels' own argmax pass writes it.
Status pooling_pairs_argmax(cudaStream_t stream, const PoolingProblem &problem, const void *x, uint8_t *argmax);

}  // namespace librednn::cuda
