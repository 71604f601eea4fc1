// The CUDA convolution solvers: the general implicit GEMM (cuda/conv/implicit_gemm.hpp) under the
// algorithm name of each direction it is: forward IMPLICIT_GEMM (the operands gathered as they load,
// no index table, no workspace), backward data ALGO_1 and backward filter ALGO_1 (deterministic: the
// filter gradient's split sums are added in a fixed order). The other algorithms have no CUDA solver
// yet. The FFT and FFT_TILING algorithms of each direction run cuda/conv/fft_conv.hpp (cuFFT, loaded
// lazily). Plus cudnnIm2Col's solver (cuda/conv/im2col.hpp).
#include "cuda/conv/conv_solver.hpp"

#include "cuda/conv/fft_conv.hpp"
#include "cuda/conv/im2col.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaConvImplicitGemm final : public ConvSolver {
public:
    CudaConvImplicitGemm(ConvDirection direction, const char *name, SolverId id, int algorithm)
        : direction_(direction), name_(name), id_(id), algorithm_(algorithm) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return algorithm_; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != direction_) return Applicability::no("solves another direction");
        cuda::ConvMath math;
        const char *reason = nullptr;
        if (!cuda::implicit_gemm_math(problem, &math, &reason)) return Applicability::no(reason);
        return Applicability::yes();
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return cuda::implicit_gemm_workspace_bytes(problem);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return cuda::implicit_gemm(context.stream, problem, buffers, context.workspace, context.workspace_bytes);
    }

private:
    ConvDirection direction_;
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
    registry.conv_forward.push_back(&forward);
    registry.conv_backward_data.push_back(&backward_data);
    registry.conv_backward_filter.push_back(&backward_filter);
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
