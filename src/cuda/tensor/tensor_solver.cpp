// The CUDA solvers of the tensor operations: each hands its problem to the element-wise kernels on the
// handle's stream.
#include "cuda/tensor/tensor_solver.hpp"
#include "ops/common/registry.hpp"

#include "cuda/common/common_solver.hpp"
#include "cuda/tensor/op_tensor.hpp"
#include "cuda/transform/transform.hpp"

namespace librednn {

namespace {

class CudaAddTensor final : public AddTensorSolver {
public:
    const char *name() const override { return "cuda_add_tensor"; }
    SolverId id() const override { return SolverId::cuda_add_tensor; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }

    Applicability applicable(const AddTensorProblem &problem) const override {
        Applicability answer = cuda::require_element_type(problem.a, "aDesc");
        if (!answer.ok()) return answer;
        return cuda::require_element_type(problem.c, "cDesc");
    }

    Status run(const ExecutionContext &context, const AddTensorProblem &problem,
               const AddTensorBuffers &buffers) const override {
        return cuda::add_tensor(context.stream, problem.alpha, problem.a, buffers.a, problem.beta, problem.c,
                                buffers.c);
    }
};

class CudaOpTensor final : public OpTensorSolver {
public:
    const char *name() const override { return "cuda_op_tensor"; }
    SolverId id() const override { return SolverId::cuda_op_tensor; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }

    Applicability applicable(const OpTensorProblem &problem) const override {
        Applicability answer = cuda::require_element_type(problem.a, "aDesc");
        if (answer.ok() && !problem.unary()) answer = cuda::require_element_type(problem.b, "bDesc");
        if (!answer.ok()) return answer;
        return cuda::require_element_type(problem.c, "cDesc");
    }

    Status run(const ExecutionContext &context, const OpTensorProblem &problem,
               const OpTensorBuffers &buffers) const override {
        cuda::OpTensorSpec spec;
        spec.op = problem.op;
        spec.compute_type = problem.compute;
        spec.nan = problem.nan_opt;
        return cuda::op_tensor(context.stream, spec, problem.alpha1, problem.a, buffers.a, problem.alpha2, problem.b,
                               buffers.b, problem.beta, problem.c, buffers.c);
    }
};

class CudaSetTensor final : public SetTensorSolver {
public:
    const char *name() const override { return "cuda_set_tensor"; }
    SolverId id() const override { return SolverId::cuda_set_tensor; }
    Backend backend() const override { return Backend::cuda; }
    bool deterministic() const override { return true; }

    Applicability applicable(const SetTensorProblem &problem) const override {
        return cuda::require_element_type(problem.y, "yDesc");
    }

    Status run(const ExecutionContext &context, const SetTensorProblem &problem,
               const SetTensorBuffers &buffers) const override {
        if (problem.kind == SetTensorProblem::Kind::set) {
            return cuda::set_tensor(context.stream, problem.y, buffers.y, problem.value);
        }
        return cuda::scale_tensor(context.stream, problem.y, buffers.y, problem.value);
    }
};

}  // namespace

const AddTensorSolver &cuda_add_tensor_solver() {
    static const CudaAddTensor solver;
    return solver;
}

const OpTensorSolver &cuda_op_tensor_solver() {
    static const CudaOpTensor solver;
    return solver;
}

const SetTensorSolver &cuda_set_tensor_solver() {
    static const CudaSetTensor solver;
    return solver;
}

void register_cuda_tensor_solvers(SolverRegistry &registry) {
    registry.add_tensor.push_back(&cuda_add_tensor_solver());
    registry.op_tensor.push_back(&cuda_op_tensor_solver());
    registry.set_tensor.push_back(&cuda_set_tensor_solver());
}

}  // namespace librednn
