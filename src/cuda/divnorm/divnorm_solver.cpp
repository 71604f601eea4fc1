// The CUDA divisive normalisation solver: hands the problem to the kernels on the handle's stream.
#include "cuda/divnorm/divnorm_solver.hpp"

#include "cuda/divnorm/divnorm.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaDivNorm final : public DivNormSolver {
public:
    const char *name() const override { return "cuda_divnorm"; }
    SolverId id() const override { return SolverId::cuda_divnorm; }
    Backend backend() const override { return Backend::cuda; }

    Applicability applicable(const DivNormProblem &problem) const override {
        const char *reason = cuda::divnorm_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    Status run(const ExecutionContext &context, const DivNormProblem &problem,
               const DivNormBuffers &buffers) const override {
        return cuda::divnorm(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_divnorm_solvers(SolverRegistry &registry) {
    static const CudaDivNorm solver;
    registry.divnorm.push_back(&solver);
}

}  // namespace librednn
