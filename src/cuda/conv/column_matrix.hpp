// The column-matrix convolutions of the CUDA backend (forward GEMM, backward data ALGO_0, backward
// filter ALGO_0): the problem's x seen through cudnnIm2Col's matrix (ops/conv/solvers.hpp: rows the
// output positions, columns each channel's filter taps together), and the matrix product on it run by
// the implicit GEMM as a 1x1 convolution of that matrix with the filter seen as [K, C/groups x taps].
// The matrix numbers a channel's taps together as a KCRS (NCHW) filter stores them, so these take KCRS
// filters only.
#pragma once

#include "ops/conv/problem.hpp"

#include <cstddef>

namespace librednn::cuda {

// The matrix as a tensor [N, C x taps, output spatial...], its columns innermost (NHWC-packed), of `dtype`.
TensorGeometry column_geometry(const ConvProblem &problem, cudnnDataType_t dtype);

// Bytes of that matrix, rounded up to 256.
size_t column_bytes(const ConvProblem &problem, cudnnDataType_t dtype);

// `problem` as the 1x1 convolution of the matrix (its x, of `dtype`) with the filter, same direction.
ConvProblem column_product(const ConvProblem &problem, cudnnDataType_t dtype);

// Why the column-matrix solvers do not take `problem` (nullptr when they do).
const char *column_matrix_unsupported_reason(const ConvProblem &problem);

}  // namespace librednn::cuda
