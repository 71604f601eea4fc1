// The convolution solvers of each direction, as the backends registered them (ops/common/registry.hpp):
// each implements one cuDNN algorithm of its direction (Solver::algorithm()). Plus cudnnIm2Col's
// solvers, which unroll the forward problem's x into the matrix a GEMM convolution multiplies.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/conv/problem.hpp"

#include <vector>

namespace librednn {

using ConvSolver = Solver<ConvProblem, ConvBuffers>;

const std::vector<const ConvSolver *> &conv_solvers(ConvDirection direction);

// cudnnIm2Col's buffers. The problem is the forward ConvProblem (y: the output dims, in x's type) and
// `col` its matrix: row n * P + p for image n and output position p (row-major over the output's
// spatial dims), column c * T + t for channel c and filter tap t (row-major over the filter's spatial
// dims), row-major, in x's type, zeros where the window reads padding. CUDNN_CONVOLUTION numbers the
// taps of the flipped filter: column t reads tap T - 1 - t of the window.
struct Im2ColBuffers {
    const void *x = nullptr;
    void *col = nullptr;
};

// BAD_PARAM naming x or colBuffer when off its elements' alignment (ops/common/buffer_alignment.hpp).
Status buffer_alignment(const ConvProblem &problem, const Im2ColBuffers &buffers);

using Im2ColSolver = Solver<ConvProblem, Im2ColBuffers>;

const std::vector<const Im2ColSolver *> &im2col_solvers();

// The matrix's rows (N x output positions) and columns (C x filter taps).
int64_t im2col_rows(const ConvProblem &problem);
int64_t im2col_columns(const ConvProblem &problem);

}  // namespace librednn
