// The CUDA batch-normalisation solver: hands the problem to the kernels on the handle's stream.
#include "cuda/batch_norm/batch_norm_solver.hpp"

#include "cuda/batch_norm/batch_norm.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaBatchNorm final : public BatchNormSolver {
public:
    const char *name() const override { return "cuda_batch_norm"; }
    SolverId id() const override { return SolverId::cuda_batch_norm; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }  // block reductions in a fixed order, no atomics

    Applicability applicable(const BatchNormProblem &problem) const override {
        const char *reason = cuda::batch_norm_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    Status run(const ExecutionContext &context, const BatchNormProblem &problem,
               const BatchNormBuffers &buffers) const override {
        return cuda::batch_norm(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_batch_norm_solvers(SolverRegistry &registry) {
    static const CudaBatchNorm solver;
    registry.batch_norm.push_back(&solver);
}

}  // namespace librednn
