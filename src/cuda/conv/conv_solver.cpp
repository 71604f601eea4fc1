// The CUDA convolution solvers: the general implicit GEMM (cuda/conv/implicit_gemm.hpp) under the
// algorithm name of each direction it is: forward IMPLICIT_GEMM (the operands gathered as they load,
// no index table, no workspace) and IMPLICIT_PRECOMP_GEMM (the input offsets of every filter tap
// precomputed in a table in the workspace, read as the tiles load), backward data ALGO_1 and backward
// filter ALGO_1 (deterministic: the filter gradient's split sums are added in a fixed order); the
// Winograd solvers (cuda/conv/winograd.hpp) under WINOGRAD and WINOGRAD_NONFUSED of each direction that
// has them. The column-matrix solvers have files of their own: forward GEMM and backward filter ALGO_0
// (one class parameterised by direction, column_gemm.cpp), backward data ALGO_0 (backward_data_gemm.cpp).
// The FFT and FFT_TILING algorithms of each direction run cuda/conv/fft_conv.hpp (cuFFT, loaded lazily).
// Plus cudnnIm2Col's solver (cuda/conv/im2col.hpp).
#include "cuda/conv/conv_solver.hpp"

#include "cuda/conv/fft_conv.hpp"
#include "cuda/conv/im2col.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "cuda/conv/winograd.hpp"
#include "ops/common/registry.hpp"
#include "ops/conv/validate.hpp"

namespace librednn {

namespace {

class CudaConvImplicitGemm final : public ConvSolver {
public:
    CudaConvImplicitGemm(ConvDirection direction, const char *name, SolverId id, int algorithm,
                         cuda::ConvIndexing indexing = cuda::ConvIndexing::computed)
        : direction_(direction), name_(name), id_(id), algorithm_(algorithm), indexing_(indexing) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return algorithm_; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != direction_) return Applicability::no("solves another direction");
        if (direction_ == ConvDirection::forward) {
            if (const char *reason = int8_algorithm_refusal(problem, algorithm_)) return Applicability::no(reason);
        }
        cuda::ConvMath math;
        const char *reason = nullptr;
        if (!cuda::implicit_gemm_math(problem, &math, &reason)) return Applicability::no(reason);
        return Applicability::yes();
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return cuda::implicit_gemm_workspace_bytes(problem, indexing_);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return cuda::implicit_gemm(context.stream, problem, buffers, context.workspace, context.workspace_bytes,
                                   indexing_);
    }

private:
    ConvDirection direction_;
    const char *name_;
    SolverId id_;
    int algorithm_;
    cuda::ConvIndexing indexing_;
};

class CudaConvWinograd final : public ConvSolver {
public:
    CudaConvWinograd(ConvDirection direction, WinogradVariant variant, const char *name, SolverId id, int algorithm)
        : direction_(direction), variant_(variant), name_(name), id_(id), algorithm_(algorithm) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return algorithm_; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != direction_) return Applicability::no("solves another direction");
        Applicability answer = winograd_applicable(problem, variant_);
        return answer.ok() ? cuda::winograd_kernel_limits(problem, variant_) : answer;
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return cuda::winograd_workspace_bytes(problem, variant_);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return cuda::winograd(context.stream, problem, buffers, variant_, context.workspace, context.workspace_bytes);
    }

private:
    ConvDirection direction_;
    WinogradVariant variant_;
    const char *name_;
    SolverId id_;
    int algorithm_;
};

// One FFT solver: the direction, the cuDNN algorithm and whether it tiles tell them apart.
class CudaConvFft final : public ConvSolver {
public:
    CudaConvFft(ConvDirection direction, const char *name, SolverId id, int algorithm, FftKind kind)
        : direction_(direction), name_(name), id_(id), algorithm_(algorithm), kind_(kind) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return algorithm_; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != direction_) return Applicability::no("solves another direction");
        return cuda::fft_applicability_cuda(problem, kind_);
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return cuda::fft_workspace_bytes(problem, kind_);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return cuda::fft_convolution(context, problem, buffers, kind_);
    }

private:
    ConvDirection direction_;
    const char *name_;
    SolverId id_;
    int algorithm_;
    FftKind kind_;
};

class CudaConvIm2Col final : public Im2ColSolver {
public:
    const char *name() const override { return "cuda_conv_im2col"; }
    SolverId id() const override { return SolverId::cuda_conv_im2col; }
    Backend backend() const override { return Backend::cuda; }
    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.spatial_dims > kMaxConvSpatialDims) {
            return Applicability::no_format("takes at most %d spatial dims, got %d", kMaxConvSpatialDims,
                                            problem.spatial_dims);
        }
        return Applicability::yes();
    }
    Status run(const ExecutionContext &context, const ConvProblem &problem,
               const Im2ColBuffers &buffers) const override {
        return cuda::im2col(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_conv_solvers(SolverRegistry &registry) {
    static const CudaConvImplicitGemm forward(ConvDirection::forward, "cuda_conv_fwd_implicit_gemm",
                                              SolverId::cuda_conv_fwd_implicit_gemm,
                                              CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
    static const CudaConvImplicitGemm backward_data(ConvDirection::backward_data, "cuda_conv_bwd_data_algo_1",
                                                    SolverId::cuda_conv_bwd_data_algo_1,
                                                    CUDNN_CONVOLUTION_BWD_DATA_ALGO_1);
    static const CudaConvImplicitGemm backward_filter(ConvDirection::backward_filter, "cuda_conv_bwd_filter_algo_1",
                                                      SolverId::cuda_conv_bwd_filter_algo_1,
                                                      CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1);
    static const CudaConvImplicitGemm forward_precomp(
        ConvDirection::forward, "cuda_conv_fwd_implicit_precomp_gemm", SolverId::cuda_conv_fwd_implicit_precomp_gemm,
        CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, cuda::ConvIndexing::precomputed);
    // The table saves a little index arithmetic per load: precomp ranks first (1-10% faster on ResNet-50's
    // shapes, bench/results/2026-12-02-h200-conv-algorithms/).
    registry.conv_forward.push_back(&forward_precomp);
    registry.conv_forward.push_back(&forward);
    registry.conv_forward.push_back(&cuda_conv_fwd_gemm_solver());
    registry.conv_backward_data.push_back(&backward_data);
    registry.conv_backward_data.push_back(&cuda_conv_bwd_data_algo_0_solver());
    registry.conv_backward_filter.push_back(&backward_filter);
    registry.conv_backward_filter.push_back(&cuda_conv_bwd_filter_algo_0_solver());
    using Variant = WinogradVariant;
    static const CudaConvWinograd forward_winograd_nonfused(
        ConvDirection::forward, Variant::nonfused, "cuda_conv_fwd_winograd_nonfused",
        SolverId::cuda_conv_fwd_winograd_nonfused, CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED);
    static const CudaConvWinograd forward_winograd(ConvDirection::forward, Variant::fused, "cuda_conv_fwd_winograd",
                                                   SolverId::cuda_conv_fwd_winograd,
                                                   CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD);
    static const CudaConvWinograd backward_data_winograd_nonfused(
        ConvDirection::backward_data, Variant::nonfused, "cuda_conv_bwd_data_winograd_nonfused",
        SolverId::cuda_conv_bwd_data_winograd_nonfused, CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED);
    static const CudaConvWinograd backward_data_winograd(
        ConvDirection::backward_data, Variant::fused, "cuda_conv_bwd_data_winograd",
        SolverId::cuda_conv_bwd_data_winograd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD);
    static const CudaConvWinograd backward_filter_winograd_nonfused(
        ConvDirection::backward_filter, Variant::nonfused, "cuda_conv_bwd_filter_winograd_nonfused",
        SolverId::cuda_conv_bwd_filter_winograd_nonfused, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED);
    registry.conv_forward.push_back(&forward_winograd_nonfused);
    registry.conv_forward.push_back(&forward_winograd);
    registry.conv_backward_data.push_back(&backward_data_winograd_nonfused);
    registry.conv_backward_data.push_back(&backward_data_winograd);
    registry.conv_backward_filter.push_back(&backward_filter_winograd_nonfused);
    static const CudaConvFft fwd_fft_tiling(ConvDirection::forward, "cuda_conv_fwd_fft_tiling",
                                            SolverId::cuda_conv_fwd_fft_tiling, CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING,
                                            FftKind::tiled);
    static const CudaConvFft fwd_fft(ConvDirection::forward, "cuda_conv_fwd_fft", SolverId::cuda_conv_fwd_fft,
                                     CUDNN_CONVOLUTION_FWD_ALGO_FFT, FftKind::whole);
    static const CudaConvFft bwd_data_fft_tiling(ConvDirection::backward_data, "cuda_conv_bwd_data_fft_tiling",
                                                 SolverId::cuda_conv_bwd_data_fft_tiling,
                                                 CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING, FftKind::tiled);
    static const CudaConvFft bwd_data_fft(ConvDirection::backward_data, "cuda_conv_bwd_data_fft",
                                          SolverId::cuda_conv_bwd_data_fft, CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT,
                                          FftKind::whole);
    static const CudaConvFft bwd_filter_fft_tiling(ConvDirection::backward_filter, "cuda_conv_bwd_filter_fft_tiling",
                                                   SolverId::cuda_conv_bwd_filter_fft_tiling,
                                                   CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING, FftKind::tiled);
    static const CudaConvFft bwd_filter_fft(ConvDirection::backward_filter, "cuda_conv_bwd_filter_fft",
                                            SolverId::cuda_conv_bwd_filter_fft, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT,
                                            FftKind::whole);
    registry.conv_forward.push_back(&fwd_fft_tiling);
    registry.conv_forward.push_back(&fwd_fft);
    registry.conv_backward_data.push_back(&bwd_data_fft_tiling);
    registry.conv_backward_data.push_back(&bwd_data_fft);
    registry.conv_backward_filter.push_back(&bwd_filter_fft_tiling);
    registry.conv_backward_filter.push_back(&bwd_filter_fft);
    static const CudaConvIm2Col im2col;
    registry.im2col.push_back(&im2col);
}

}  // namespace librednn
