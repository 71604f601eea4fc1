// CUDA convolution, forward GEMM: x's windows copied into the column matrix in the workspace (cudnnIm2Col's
// kernel, cuda/conv/im2col.hpp), then one matrix product per group with the filter (column_matrix.hpp: the
// implicit GEMM's kernel run as a 1x1 convolution of that matrix). KCRS filters.
#include "cuda/conv/column_matrix.hpp"
#include "cuda/conv/conv_solver.hpp"
#include "cuda/conv/im2col.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "ops/common/solver_id.hpp"
#include "ops/conv/validate.hpp"

namespace librednn {

namespace {

using cuda::column_bytes;
using cuda::column_product;

class CudaConvForwardGemm final : public ConvSolver {
public:
    const char *name() const override { return "cuda_conv_fwd_gemm"; }
    SolverId id() const override { return SolverId::cuda_conv_fwd_gemm; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return CUDNN_CONVOLUTION_FWD_ALGO_GEMM; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != ConvDirection::forward) return Applicability::no("solves forward convolutions");
        if (const char *reason = int8_algorithm_refusal(problem, CUDNN_CONVOLUTION_FWD_ALGO_GEMM)) {
            return Applicability::no(reason);
        }
        if (const char *reason = cuda::column_matrix_unsupported_reason(problem)) return Applicability::no(reason);
        cuda::ConvMath math;
        const char *reason = nullptr;
        if (!cuda::implicit_gemm_math(problem, &math, &reason)) return Applicability::no(reason);
        if (!cuda::implicit_gemm_math(column_product(problem, problem.x.dtype), &math, &reason)) {
            return Applicability::no_format("cannot multiply the column matrix: it %s", reason);
        }
        return Applicability::yes();
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return column_bytes(problem, problem.x.dtype) +
               cuda::implicit_gemm_workspace_bytes(column_product(problem, problem.x.dtype));
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const size_t needed = workspace_bytes(problem), columns = column_bytes(problem, problem.x.dtype);
        if (context.workspace == nullptr || context.workspace_bytes < needed) {
            return fail(CUDNN_STATUS_BAD_PARAM, "GEMM's column matrix needs %zu bytes of workspace", needed);
        }
        Im2ColBuffers unroll;
        unroll.x = buffers.x;
        unroll.col = context.workspace;
        LIBREDNN_CHECK(cuda::im2col(context.stream, problem, unroll));
        ConvBuffers product = buffers;
        product.x = context.workspace;
        return cuda::implicit_gemm(context.stream, column_product(problem, problem.x.dtype), product,
                                   static_cast<char *>(context.workspace) + columns, context.workspace_bytes - columns);
    }
};

}  // namespace

const ConvSolver &cuda_conv_fwd_gemm_solver() {
    static const CudaConvForwardGemm solver;
    return solver;
}

}  // namespace librednn
