// Winograd convolution (Lavin and Gray, "Fast Algorithms for Convolutional Neural Networks", CVPR 2016):
// the tiles LibreDNN computes with, their transform matrices, and the problems cuDNN 8 documents its two
// Winograd algorithms for. F(m, r) computes m outputs of an r-tap correlation from alpha = m + r - 1
// inputs with alpha multiplications: y = A^T [(G g) . (B^T d)]; in 2-d, Y = A^T [(G g G^T) . (B^T d B)] A,
// and the products summed over the input channels are one matrix product per (xi, nu) of the tile.
//   WINOGRAD (fused): F(2x2, 3x3), alpha 4, the transforms done tile by tile, nothing materialised.
//   WINOGRAD_NONFUSED: F(4x4, 3x3) and F(2x2, 5x5), alpha 6 (the same points 0, 1, -1, 2, -2 and
//   infinity, so one input transform), each transform a pass of its own through the workspace.
// Backward data is the forward correlation of dy with the filter rotated by 180 degrees and its channels
// transposed (padding r - 1 - pad); backward filter differentiates y = A^T [(G g) . (B^T d)] in g:
// dw = G^T [(A dy) . (B^T x)] per tile, in 2-d G^T [sum over images and tiles of (A dy A^T) . (B^T x B)] G.
#pragma once

#include "ops/common/solver.hpp"
#include "ops/conv/problem.hpp"

namespace librednn {

enum class WinogradVariant { fused, nonfused };

// One F(m x m, r x r): row-major matrices, B^T alpha x alpha, G alpha x r, A^T m x alpha.
struct WinogradTile {
    int m = 0, r = 0, alpha = 0;
    const double *bt = nullptr;
    const double *g = nullptr;
    const double *at = nullptr;
};

// The tile a variant computes filters of size r with (3 fused; 3 or 5 nonfused).
const WinogradTile &winograd_tile(WinogradVariant variant, int r);

// Yes when cuDNN 8 documents the variant for the problem (cudnnConvolutionForward, BackwardData and
// BackwardFilter, "Supported configurations", 2-d): 2 spatial dims, unit strides and dilation, filters
// 3x3 (WINOGRAD) or 3x3 and 5x5 (WINOGRAD_NONFUSED), x and y in any layout but NCHW_VECT_C; the type
// configurations PSEUDO_HALF and FLOAT, and for WINOGRAD_NONFUSED also TRUE_HALF with 3x3 filters.
// No backward-filter WINOGRAD (cuDNN does not implement it); groups are fine (each group on its own).
Applicability winograd_applicable(const ConvProblem &problem, WinogradVariant variant);

// The tiles covering `extent` outputs m at a time.
inline int64_t winograd_tiles(int64_t extent, int m) { return (extent + m - 1) / m; }

}  // namespace librednn
