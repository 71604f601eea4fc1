// The CUDA LRN solver: hands the problem to the kernels on the handle's stream.
#include "cuda/lrn/lrn_solver.hpp"

#include "cuda/lrn/lrn.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaLrn final : public LrnSolver {
public:
    const char *name() const override { return "cuda_lrn"; }
    SolverId id() const override { return SolverId::cuda_lrn; }
    Backend backend() const override { return Backend::cuda; }

    Applicability applicable(const LrnProblem &problem) const override {
        const char *reason = cuda::lrn_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    Status run(const ExecutionContext &context, const LrnProblem &problem, const LrnBuffers &buffers) const override {
        return cuda::lrn(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_lrn_solvers(SolverRegistry &registry) {
    static const CudaLrn solver;
    registry.lrn.push_back(&solver);
}

}  // namespace librednn
