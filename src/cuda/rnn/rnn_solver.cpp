// The CUDA RNN solver: every configuration the host takes, with per-step products (cuda/rnn/rnn.hpp).
#include "cuda/rnn/rnn_solver.hpp"

#include "cuda/rnn/rnn.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaRnn final : public RnnSolver {
public:
    const char *name() const override { return "cuda_rnn"; }
    SolverId id() const override { return SolverId::cuda_rnn; }
    Backend backend() const override { return Backend::cuda; }

    Applicability applicable(const RnnProblem &problem) const override {
        const char *reason = cuda::rnn_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    size_t workspace_bytes(const RnnProblem &problem) const override { return cuda::rnn_workspace_bytes(problem); }

    Status run(const ExecutionContext &context, const RnnProblem &problem, const RnnBuffers &buffers) const override {
        return cuda::rnn(context.stream, problem, buffers, context.workspace);
    }
};

}  // namespace

void register_cuda_rnn_solvers(SolverRegistry &registry) {
    static const CudaRnn solver;
    registry.rnn.push_back(&solver);
}

}  // namespace librednn
