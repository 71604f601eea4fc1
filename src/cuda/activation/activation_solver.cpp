// The CUDA activation solver: hands the problem to the activation kernels on the handle's stream.
#include "cuda/activation/activation_solver.hpp"
#include "ops/common/registry.hpp"

#include "cuda/activation/activation.hpp"
#include "cuda/common/common_solver.hpp"

namespace librednn {

namespace {

class CudaActivation final : public ActivationSolver {
public:
    const char *name() const override { return "cuda_activation"; }
    SolverId id() const override { return SolverId::cuda_activation; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }

    Applicability applicable(const ActivationProblem &problem) const override {
        // Validation has made every tensor one type; the result's type is the one the kernels see.
        return cuda::require_floating(problem.result(), problem.direction == Direction::forward ? "yDesc" : "dxDesc");
    }

    Status run(const ExecutionContext &context, const ActivationProblem &problem,
               const ActivationBuffers &buffers) const override {
        cuda::ActivationSpec spec;
        spec.mode = problem.mode;
        spec.nan = problem.nan_opt;
        spec.coef = problem.coef;
        spec.swish_beta = problem.swish_beta;
        if (problem.direction == Direction::forward) {
            return cuda::activation_forward(context.stream, spec, problem.alpha, problem.x, buffers.x, problem.beta,
                                            problem.y, buffers.result);
        }
        return cuda::activation_backward(context.stream, spec, problem.alpha, problem.y, buffers.y, problem.dy,
                                         buffers.dy, problem.x, buffers.x, problem.beta, problem.dx, buffers.result);
    }
};

}  // namespace

const ActivationSolver &cuda_activation_solver() {
    static const CudaActivation solver;
    return solver;
}

void register_cuda_activation_solvers(SolverRegistry &registry) {
    registry.activation.push_back(&cuda_activation_solver());
}

}  // namespace librednn
