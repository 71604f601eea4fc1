// The CUDA dropout solver: hands the problem to the kernels on the handle's stream.
#include "cuda/dropout/dropout_solver.hpp"

#include "cuda/dropout/dropout.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaDropout final : public DropoutSolver {
public:
    const char *name() const override { return "cuda_dropout"; }
    SolverId id() const override { return SolverId::cuda_dropout; }
    Backend backend() const override { return Backend::cuda; }

    Applicability applicable(const DropoutProblem &problem) const override {
        const char *reason = cuda::dropout_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    Status run(const ExecutionContext &context, const DropoutProblem &problem,
               const DropoutBuffers &buffers) const override {
        return cuda::dropout(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_dropout_solvers(SolverRegistry &registry) {
    static const CudaDropout solver;
    registry.dropout.push_back(&solver);
}

}  // namespace librednn
