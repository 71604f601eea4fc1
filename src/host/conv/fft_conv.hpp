// The host's FFT convolutions (the FFT and FFT_TILING algorithms of each direction): the packed tensors of
// packed_conv.hpp, each direction's correlation (ops/conv/fft_geometry.hpp) computed tile by tile with
// host/common/fft.hpp, in float (double for double data).
#pragma once

#include "ops/conv/fft_geometry.hpp"
#include "ops/conv/solvers.hpp"

#include <cstddef>

namespace librednn::host::conv {

// Exactly what run_fft_convolution uses: the packed tensors, the transforms and the FFT's scratch.
size_t fft_workspace_bytes(const ConvProblem &problem, FftKind kind);

Status run_fft_convolution(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers,
                           FftKind kind);

// One FFT solver: the direction, the cuDNN algorithm and whether it tiles are all that tell them apart.
class HostFftConvSolver final : public ConvSolver {
public:
    HostFftConvSolver(const char *name, SolverId id, ConvDirection direction, int algorithm, FftKind kind)
        : name_(name), id_(id), direction_(direction), algorithm_(algorithm), kind_(kind) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return algorithm_; }
    Applicability applicable(const ConvProblem &problem) const override;
    size_t workspace_bytes(const ConvProblem &problem) const override { return fft_workspace_bytes(problem, kind_); }
    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return run_fft_convolution(context, problem, buffers, kind_);
    }

private:
    const char *name_;
    SolverId id_;
    ConvDirection direction_;
    int algorithm_;
    FftKind kind_;
};

}  // namespace librednn::host::conv
