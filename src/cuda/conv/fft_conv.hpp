// The CUDA backend's FFT convolutions (the FFT and FFT_TILING algorithms of each direction): each
// direction's correlation (ops/conv/fft_geometry.hpp) per group as batches of complex transforms by
// cuFFT (loaded lazily, cuda/common/cufft.hpp), with our own kernels to cut the windows and tiles, to
// multiply and sum the transforms, and to crop and blend the result. Float (half data computes in float)
// or double; deterministic.
#pragma once

#include "ops/conv/fft_geometry.hpp"
#include "ops/conv/solvers.hpp"

#include <cstddef>

namespace librednn::cuda {

// cuDNN's rules (fft_applicability), then ours: cuFFT loaded, batches cuFFT can count.
Applicability fft_applicability_cuda(const ConvProblem &problem, FftKind kind);

// Exactly what fft_convolution uses: the transforms of one group and cuFFT's largest work area.
size_t fft_workspace_bytes(const ConvProblem &problem, FftKind kind);

Status fft_convolution(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers,
                       FftKind kind);

}  // namespace librednn::cuda
