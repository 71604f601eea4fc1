// The CUDA reduction solver: hands the problem to the reduction kernels on the handle's stream, with
// the workspace cudnnGetReductionWorkspaceSize asked for.
#include "cuda/reduce/reduce_solver.hpp"
#include "ops/common/registry.hpp"

#include "cuda/common/common_solver.hpp"
#include "cuda/reduce/reduce.hpp"

namespace librednn {

namespace {

cuda::ReduceSpec spec_of(const ReduceProblem &problem) {
    cuda::ReduceSpec spec;
    spec.op = problem.op;
    spec.nan = problem.nan_opt;
    spec.compute_indices = problem.indices;
    return spec;
}

// What validation lets through: float, double, half, bfloat16 and int8 (computed in float).
Applicability require_reduce_type(const TensorGeometry &tensor, const char *name) {
    if (is_floating_point(tensor.dtype) || tensor.dtype == CUDNN_DATA_INT8) return Applicability::yes();
    return Applicability::no_format(
        "%s holds %s: the CUDA reduction kernels take float, double, half, bfloat16 and int8", name,
        type_name(tensor.dtype));
}

class CudaReduce final : public ReduceSolver {
public:
    const char *name() const override { return "cuda_reduce"; }
    SolverId id() const override { return SolverId::cuda_reduce; }
    Backend backend() const override { return Backend::cuda; }
    // Partial results combine in split order, without atomics: same inputs and workspace size, same bits.
    bool deterministic() const override { return true; }

    Applicability applicable(const ReduceProblem &problem) const override {
        Applicability answer = require_reduce_type(problem.a, "aDesc");
        if (!answer.ok()) return answer;
        return require_reduce_type(problem.c, "cDesc");
    }

    size_t workspace_bytes(const ReduceProblem &problem) const override {
        return cuda::reduce_workspace_bytes(spec_of(problem), problem.a, problem.c);
    }

    Status run(const ExecutionContext &context, const ReduceProblem &problem,
               const ReduceBuffers &buffers) const override {
        // A null workspace with a size is no workspace (cuDNN callers pass that when none is needed).
        const size_t workspace_bytes = context.workspace != nullptr ? context.workspace_bytes : 0;
        return cuda::reduce_tensor(context.stream, spec_of(problem), context.workspace, workspace_bytes,
                                   static_cast<uint32_t *>(buffers.indices), problem.alpha, problem.a, buffers.a,
                                   problem.beta, problem.c, buffers.c);
    }
};

}  // namespace

const ReduceSolver &cuda_reduce_solver() {
    static const CudaReduce solver;
    return solver;
}

void register_cuda_reduce_solvers(SolverRegistry &registry) { registry.reduce.push_back(&cuda_reduce_solver()); }

}  // namespace librednn
