// CUDA convolution, BWD_DATA_ALGO_0: the gradient of the column matrix, dy times the filter (column_matrix.hpp:
// the implicit GEMM's backward data of the 1x1 convolution), into the workspace in float (double for double
// data), then col2im (col2im.hpp) adds each input position's entries and blends them into dx. KCRS filters.
// (cuDNN's ALGO_0 may be non-deterministic; this one is not.)
#include "cuda/conv/col2im.hpp"
#include "cuda/conv/column_matrix.hpp"
#include "cuda/conv/conv_solver.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "ops/common/solver_id.hpp"

namespace librednn {

namespace {

using cuda::column_bytes;

// The gradient matrix's type: the implicit GEMM's accumulation type, so that it adds up without rounding
// to a narrow type in between.
cudnnDataType_t columns_type(const ConvProblem &p) {
    return p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

// The first step: the gradient matrix (alpha 1, beta 0: col2im blends).
ConvProblem gradient_product(const ConvProblem &p) {
    ConvProblem view = cuda::column_product(p, columns_type(p));
    view.alpha = 1.0;
    view.beta = 0.0;
    return view;
}

class CudaConvBackwardDataGemm final : public ConvSolver {
public:
    const char *name() const override { return "cuda_conv_bwd_data_algo_0"; }
    SolverId id() const override { return SolverId::cuda_conv_bwd_data_algo_0; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_DATA_ALGO_0; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != ConvDirection::backward_data) {
            return Applicability::no("solves backward-data convolutions");
        }
        if (const char *reason = cuda::column_matrix_unsupported_reason(problem)) return Applicability::no(reason);
        cuda::ConvMath math;
        const char *reason = nullptr;
        if (!cuda::implicit_gemm_math(problem, &math, &reason)) return Applicability::no(reason);
        if (!cuda::implicit_gemm_math(gradient_product(problem), &math, &reason)) {
            return Applicability::no_format("cannot form the column matrix's gradient: it %s", reason);
        }
        return Applicability::yes();
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return column_bytes(problem, columns_type(problem)) +
               cuda::implicit_gemm_workspace_bytes(gradient_product(problem));
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const size_t needed = workspace_bytes(problem), columns = column_bytes(problem, columns_type(problem));
        if (context.workspace == nullptr || context.workspace_bytes < needed) {
            return fail(CUDNN_STATUS_BAD_PARAM, "BWD_DATA_ALGO_0's column matrix needs %zu bytes of workspace", needed);
        }
        ConvBuffers product = buffers;
        product.result = context.workspace;
        LIBREDNN_CHECK(cuda::implicit_gemm(context.stream, gradient_product(problem), product,
                                           static_cast<char *>(context.workspace) + columns,
                                           context.workspace_bytes - columns));
        return cuda::col2im(context.stream, problem, context.workspace, columns_type(problem), buffers.result);
    }
};

}  // namespace

const ConvSolver &cuda_conv_bwd_data_algo_0_solver() {
    static const CudaConvBackwardDataGemm solver;
    return solver;
}

}  // namespace librednn
