// Max pooling forward over packed NHWC half and bfloat16 with 2x2 or 3x3 windows (VGG's and ResNet's max
// pooling), any stride and padding, at memory speed. A thread takes one output's 16-byte vector of 8
// channels: it issues the window's loads (at most nine) before it uses any, then folds them two channels an
// instruction (__hmax2, or __hmax2_nan where NaN propagates). The maximum is exact in the storage type, so the
// result equals the packed kernels' (which fold each channel in float) but for the sign of a zero maximum;
// a window of NaNs gives 0 where NaN is skipped, as there.
#pragma once

#include "core/status.hpp"
#include "ops/pooling/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// Whether the paired kernels take this problem with these buffers.
bool pooling_pairs_applicable(const PoolingProblem &problem, const PoolingBuffers &buffers);

Status pooling_pairs(cudaStream_t stream, const PoolingProblem &problem, const PoolingBuffers &buffers);

}  // namespace librednn::cuda
