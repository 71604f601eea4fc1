// The CUDA softmax solver: hands the problem to the softmax kernels on the handle's stream.
#include "cuda/softmax/softmax_solver.hpp"
#include "ops/common/registry.hpp"

#include "cuda/common/common_solver.hpp"
#include "cuda/softmax/softmax.hpp"

namespace librednn {

namespace {

class CudaSoftmax final : public SoftmaxSolver {
public:
    const char *name() const override { return "cuda_softmax"; }
    SolverId id() const override { return SolverId::cuda_softmax; }
    Backend backend() const override { return Backend::cuda; }
    // Row statistics combine in a fixed butterfly order: same inputs, same bits.
    bool deterministic() const override { return true; }

    Applicability applicable(const SoftmaxProblem &problem) const override {
        return cuda::require_floating(problem.result(), problem.direction == Direction::forward ? "yDesc" : "dxDesc");
    }

    Status run(const ExecutionContext &context, const SoftmaxProblem &problem,
               const SoftmaxBuffers &buffers) const override {
        if (problem.direction == Direction::forward) {
            return cuda::softmax_forward(context.stream, problem.algorithm, problem.mode, problem.alpha, problem.x,
                                         buffers.x, problem.beta, problem.y, buffers.result);
        }
        return cuda::softmax_backward(context.stream, problem.algorithm, problem.mode, problem.alpha, problem.y,
                                      buffers.y, problem.dy, buffers.dy, problem.beta, problem.dx, buffers.result);
    }
};

}  // namespace

const SoftmaxSolver &cuda_softmax_solver() {
    static const CudaSoftmax solver;
    return solver;
}

void register_cuda_softmax_solvers(SolverRegistry &registry) { registry.softmax.push_back(&cuda_softmax_solver()); }

}  // namespace librednn
