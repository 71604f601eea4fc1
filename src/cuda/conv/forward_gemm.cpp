// CUDA convolution, forward GEMM: x's windows copied into the column matrix in the workspace
// (cudnnIm2Col's kernel, cuda/conv/im2col.hpp), then one matrix product per group with the filter
// (the implicit GEMM's kernel run as a 1x1 convolution of that matrix: its rows are the output positions,
// its C x taps columns the channels, contiguous). The column matrix numbers each channel's taps together,
// as a KCRS (NCHW) filter stores them, so the filter is read as it lies.
#include "cuda/conv/conv_solver.hpp"

#include "cuda/conv/im2col.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "ops/common/solver_id.hpp"

namespace librednn {

namespace {

// The column matrix as a tensor [N, C * taps, output spatial...], channels innermost (NHWC-packed).
TensorGeometry column_geometry(const ConvProblem &p) {
    int64_t dims[kMaxDims] = {p.batch(), im2col_columns(p)};
    for (int d = 0; d < p.spatial_dims; ++d) dims[2 + d] = p.output_extent(d);
    return packed_geometry(p.x.dtype, p.spatial_dims + 2, dims, PackedLayout::nhwc);
}

// The product the second step runs: a 1x1 convolution of the column matrix with the filter, per group.
ConvProblem matrix_product(const ConvProblem &p) {
    ConvProblem view = p;
    view.x = column_geometry(p);
    int64_t w_dims[kMaxDims] = {p.output_channels(), p.channels_per_group() * p.filter_size()};
    for (int d = 0; d < p.spatial_dims; ++d) w_dims[2 + d] = 1;
    view.w = packed_geometry(p.w.dtype, p.spatial_dims + 2, w_dims, PackedLayout::nchw);
    view.filter_format = CUDNN_TENSOR_NCHW;
    for (int d = 0; d < p.spatial_dims; ++d) view.pad[d] = 0, view.stride[d] = 1, view.dilation[d] = 1;
    view.mode = CUDNN_CROSS_CORRELATION;  // the column matrix already reads CONVOLUTION's mirrored taps
    return view;
}

size_t column_bytes(const ConvProblem &p) {
    const size_t bytes = static_cast<size_t>(im2col_rows(p)) * im2col_columns(p) * data_type_size(p.x.dtype);
    return (bytes + 255) / 256 * 256;
}

class CudaConvForwardGemm final : public ConvSolver {
public:
    const char *name() const override { return "cuda_conv_fwd_gemm"; }
    SolverId id() const override { return SolverId::cuda_conv_fwd_gemm; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return CUDNN_CONVOLUTION_FWD_ALGO_GEMM; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != ConvDirection::forward) return Applicability::no("solves forward convolutions");
        if (problem.filter_format != CUDNN_TENSOR_NCHW) {
            return Applicability::no(
                "takes KCRS (NCHW) filters: the column matrix numbers each channel's taps "
                "together");
        }
        cuda::ConvMath math;
        const char *reason = nullptr;
        if (!cuda::implicit_gemm_math(problem, &math, &reason)) return Applicability::no(reason);
        if (!cuda::implicit_gemm_math(matrix_product(problem), &math, &reason)) {
            return Applicability::no_format("cannot multiply the column matrix: it %s", reason);
        }
        return Applicability::yes();
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return column_bytes(problem) + cuda::implicit_gemm_workspace_bytes(matrix_product(problem));
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const size_t columns = column_bytes(problem);
        if (context.workspace == nullptr || context.workspace_bytes < workspace_bytes(problem)) {
            return fail(CUDNN_STATUS_BAD_PARAM, "GEMM's column matrix needs %zu bytes of workspace",
                        workspace_bytes(problem));
        }
        Im2ColBuffers unroll;
        unroll.x = buffers.x;
        unroll.col = context.workspace;
        LIBREDNN_CHECK(cuda::im2col(context.stream, problem, unroll));
        ConvBuffers product = buffers;
        product.x = context.workspace;
        return cuda::implicit_gemm(context.stream, matrix_product(problem), product,
                                   static_cast<char *>(context.workspace) + columns, context.workspace_bytes - columns);
    }
};

}  // namespace

const ConvSolver &cuda_conv_fwd_gemm_solver() {
    static const CudaConvForwardGemm solver;
    return solver;
}

}  // namespace librednn
