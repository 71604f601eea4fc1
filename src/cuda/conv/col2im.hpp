// The CUDA backend's col2im, the last step of backward data ALGO_0 (backward_data_gemm.cpp): dx =
// alpha * (the sum, over the matrix entries that read each input position, of the gradient matrix) + beta
// * dx. One thread per dx element, gathering its taps in a fixed order: deterministic, no atomics.
#pragma once

#include "core/status.hpp"
#include "ops/conv/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

// `columns`: the gradient of the column matrix (column_matrix.hpp) of backward-data `problem`, of
// `columns_type` (float, or double for double data). Writes problem.x (dx) at `dx`.
Status col2im(cudaStream_t stream, const ConvProblem &problem, const void *columns, cudnnDataType_t columns_type,
              void *dx);

}  // namespace librednn::cuda
