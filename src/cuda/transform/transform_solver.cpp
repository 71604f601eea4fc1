// The CUDA transform solver: hands layout and type changes to the transform kernels, and padding and
// folding to the reshape kernel, on the handle's stream.
#include "cuda/transform/transform_solver.hpp"
#include "ops/common/registry.hpp"

#include "cuda/common/common_solver.hpp"
#include "cuda/transform/transform.hpp"
#include "cuda/transform/transform_reshape.hpp"

#include <algorithm>

namespace librednn {

namespace {

cuda::ReshapeSpec reshape_spec_of(const TransformProblem &problem) {
    cuda::ReshapeSpec spec;
    std::copy(problem.pad_before, problem.pad_before + kMaxDims, spec.pad_before);
    std::copy(problem.pad_after, problem.pad_after + kMaxDims, spec.pad_after);
    std::copy(problem.fold, problem.fold + kMaxDims, spec.fold);
    spec.unfold = problem.unfold;
    return spec;
}

class CudaTransform final : public TransformSolver {
public:
    const char *name() const override { return "cuda_transform"; }
    SolverId id() const override { return SolverId::cuda_transform; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }

    Applicability applicable(const TransformProblem &problem) const override {
        Applicability answer = cuda::require_element_type(problem.x, "xDesc");
        if (!answer.ok()) return answer;
        return cuda::require_element_type(problem.y, "yDesc");
    }

    Status run(const ExecutionContext &context, const TransformProblem &problem,
               const TransformBuffers &buffers) const override {
        if (problem.reshapes()) {
            return cuda::transform_reshape(context.stream, reshape_spec_of(problem), problem.alpha, problem.x,
                                           buffers.x, problem.beta, problem.y, buffers.y);
        }
        return cuda::transform_tensor(context.stream, problem.alpha, problem.x, buffers.x, problem.beta, problem.y,
                                      buffers.y);
    }
};

}  // namespace

const TransformSolver &cuda_transform_solver() {
    static const CudaTransform solver;
    return solver;
}

void register_cuda_transform_solvers(SolverRegistry &registry) {
    registry.transform.push_back(&cuda_transform_solver());
}

}  // namespace librednn
