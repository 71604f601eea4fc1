// The CUDA transform solver: hands layout and type changes to the transform kernels on the handle's
// stream.
#include "cuda/tensor_ops/transform_solver.hpp"

#include "cuda/tensor_ops/common_solver.hpp"
#include "cuda/tensor_ops/transform.hpp"

namespace librednn {

namespace {

class CudaTransform final : public TransformSolver {
public:
    const char *name() const override { return "cuda_transform"; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }

    Applicability applicable(const TransformProblem &problem) const override {
        if (problem.reshapes()) return Applicability::no("padding and folding run on the host backend only");
        Applicability answer = cuda::require_element_type(problem.x, "xDesc");
        if (!answer.ok()) return answer;
        return cuda::require_element_type(problem.y, "yDesc");
    }

    Status run(const ExecutionContext &context, const TransformProblem &problem,
               const TransformBuffers &buffers) const override {
        return cuda::transform_tensor(context.stream, problem.alpha, problem.x, buffers.x, problem.beta, problem.y,
                                      buffers.y);
    }
};

}  // namespace

const TransformSolver &cuda_transform_solver() {
    static const CudaTransform solver;
    return solver;
}

}  // namespace librednn
