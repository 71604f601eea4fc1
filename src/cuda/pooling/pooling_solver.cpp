// The CUDA pooling solver: hands the problem to the pooling kernels on the handle's stream.
#include "cuda/pooling/pooling_solver.hpp"

#include "cuda/pooling/pooling.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaPooling final : public PoolingSolver {
public:
    const char *name() const override { return "cuda_pooling"; }
    SolverId id() const override { return SolverId::cuda_pooling; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }  // the backward pass gathers: no atomics

    Applicability applicable(const PoolingProblem &problem) const override {
        const char *reason = cuda::pooling_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    Status run(const ExecutionContext &context, const PoolingProblem &problem,
               const PoolingBuffers &buffers) const override {
        return cuda::pooling(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_pooling_solvers(SolverRegistry &registry) {
    static const CudaPooling solver;
    registry.pooling.push_back(&solver);
}

}  // namespace librednn
