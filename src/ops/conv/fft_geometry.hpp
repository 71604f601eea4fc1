// FFT convolution, what every backend shares: cuDNN 8's applicability rules of the FFT and FFT_TILING
// algorithms, and the one correlation each direction becomes, with its transform sizes and tiles.
//
// Every direction is, per spatial dim, out[q] = sum over t of f[t] * src[q + t - offset] (src zero
// outside its extent), summed over a channel (and for the filter gradient over the images):
//   forward          src x,  f w (flipped for CUDNN_CONVOLUTION),  out y,   offset pad
//   backward data    src dy, f w reversed (unflipped for CONVOLUTION), out dx, offset filter - 1 - pad
//   backward filter  src x,  f dy,                                 out dw,  offset pad
// A transform of size n >= out + f - 1 computes it without wrap-around: OUT = IFFT(FFT(window) x
// conj(FFT(f))) / n, where the window is src[origin - offset ...] (n values). FFT uses one window as
// large as the problem; FFT_TILING cuts the problem into tiles of a fixed transform size: forward and
// backward data into output tiles (overlap-save: each tile's window overlaps the next by f - 1), the
// filter gradient into tiles of dy (overlap-add: each tile adds its part of the sum over dy's positions).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/conv/problem.hpp"

#include <cstdint>

namespace librednn {

constexpr int kMaxFftConvDims = 3;

enum class FftKind { whole, tiled };

// Yes when cuDNN 8 runs the problem with its FFT (`whole`) or FFT_TILING (`tiled`) algorithm of the
// problem's direction; else the rule it breaks (cuDNN answers CUDNN_STATUS_NOT_SUPPORTED).
Applicability fft_applicability(const ConvProblem &problem, FftKind kind);

struct FftCorrelation {
    int dims = 0;
    bool tile_the_filter = false;  // backward filter: tiles cut f (dy); otherwise they cut out
    int64_t src[kMaxFftConvDims] = {}, filter[kMaxFftConvDims] = {}, out[kMaxFftConvDims] = {};
    int64_t offset[kMaxFftConvDims] = {};
    // Strided problems (FFT_TILING, stride 2): src value i sits at correlation position i * src_stride (zeros
    // between; backward data), and only correlation positions q * out_stride are stored, as out value q
    // (forward). `out` counts correlation positions; the result tensor has (out - 1) / out_stride + 1.
    int64_t src_stride[kMaxFftConvDims] = {1, 1, 1}, out_stride[kMaxFftConvDims] = {1, 1, 1};
    int64_t fft[kMaxFftConvDims] = {};    // the transform's size (a power of two)
    int64_t step[kMaxFftConvDims] = {};   // how far one tile's origin is from the next
    int64_t tiles[kMaxFftConvDims] = {};  // how many tiles along the dim

    int64_t fft_points() const;
    int64_t tile_count() const;
    // The tiled extent: out, or f for the filter gradient.
    int64_t tiled_extent(int d) const { return tile_the_filter ? filter[d] : out[d]; }
    // The result tensor's extent along d (out for unit strides).
    int64_t stored_extent(int d) const { return (out[d] - 1) / out_stride[d] + 1; }
};

// FFT: one tile, n = next power of two >= out + f - 1 per dim. FFT_TILING: n = the larger of 32 and the
// next power of two >= 2 k - 1, k the untiled operand's extent (the filter forward and backward data, dw
// for the filter gradient), so that each tile moves by n - k + 1 >= n / 2; or FFT's n where that is
// smaller (the problem fits one tile along that dim).
FftCorrelation fft_correlation(const ConvProblem &problem, FftKind kind);

}  // namespace librednn
