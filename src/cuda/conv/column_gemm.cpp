// CUDA convolution, forward GEMM and BWD_FILTER_ALGO_0: x's windows copied into the column matrix in the
// workspace (cudnnIm2Col's kernel, cuda/conv/im2col.hpp), then one matrix product per group
// (column_matrix.hpp: the implicit GEMM run as a 1x1 convolution of that matrix): forward y = the matrix times
// the filter; backward filter dw = dy^T times the matrix, its long sum split over blocks and added in a fixed
// order (cuDNN's ALGO_0 may be non-deterministic; this one is not). KCRS filters.
#include "cuda/conv/column_matrix.hpp"
#include "cuda/conv/conv_solver.hpp"
#include "cuda/conv/im2col.hpp"
#include "cuda/conv/implicit_gemm.hpp"
#include "ops/common/solver_id.hpp"
#include "ops/conv/algorithms.hpp"
#include "ops/conv/validate.hpp"

namespace librednn {

namespace {

using cuda::column_bytes;
using cuda::column_product;

class CudaConvColumnGemm final : public ConvSolver {
public:
    CudaConvColumnGemm(ConvDirection direction, const char *name, SolverId id, int algorithm)
        : direction_(direction), name_(name), id_(id), algorithm_(algorithm) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::cuda; }
    int algorithm() const override { return algorithm_; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        if (problem.direction != direction_) {
            return Applicability::no_format("solves %s convolutions, not %s", conv_direction_name(direction_),
                                            conv_direction_name(problem.direction));
        }
        // The int8 configurations run forward, under the implicit GEMMs only (cuDNN 8's rule).
        if (const char *reason =
                direction_ == ConvDirection::forward ? int8_algorithm_refusal(problem, algorithm_) : nullptr) {
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
            return fail(CUDNN_STATUS_BAD_PARAM, "%s's column matrix needs %zu bytes of workspace",
                        conv_algorithm_name(direction_, algorithm_), needed);
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

private:
    ConvDirection direction_;
    const char *name_;
    SolverId id_;
    int algorithm_;
};

}  // namespace

const ConvSolver &cuda_conv_fwd_gemm_solver() {
    static const CudaConvColumnGemm solver(ConvDirection::forward, "cuda_conv_fwd_gemm", SolverId::cuda_conv_fwd_gemm,
                                           CUDNN_CONVOLUTION_FWD_ALGO_GEMM);
    return solver;
}

const ConvSolver &cuda_conv_bwd_filter_algo_0_solver() {
    static const CudaConvColumnGemm solver(ConvDirection::backward_filter, "cuda_conv_bwd_filter_algo_0",
                                           SolverId::cuda_conv_bwd_filter_algo_0, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0);
    return solver;
}

}  // namespace librednn
