// The CUDA spatial transformer solver: hands the problem to the kernels on the handle's stream.
#include "cuda/spatial_tf/spatial_tf_solver.hpp"

#include "cuda/spatial_tf/spatial_tf.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaSpatialTf final : public SpatialTfSolver {
public:
    const char *name() const override { return "cuda_spatial_tf"; }
    SolverId id() const override { return SolverId::cuda_spatial_tf; }
    Backend backend() const override { return Backend::cuda; }
    // The sampler backward adds into dx atomically, in an order that varies; cuDNN's does too.
    bool deterministic() const override { return false; }

    Applicability applicable(const SpatialTfProblem &problem) const override {
        const char *reason = cuda::spatial_tf_unsupported_reason(problem);
        return reason ? Applicability::no(reason) : Applicability::yes();
    }

    size_t workspace_bytes(const SpatialTfProblem &problem) const override {
        return cuda::spatial_tf_workspace_bytes(problem);
    }

    Status run(const ExecutionContext &context, const SpatialTfProblem &problem,
               const SpatialTfBuffers &buffers) const override {
        return cuda::spatial_tf(context.stream, problem, buffers, context.workspace, context.workspace_bytes);
    }
};

}  // namespace

void register_cuda_spatial_tf_solvers(SolverRegistry &registry) {
    static const CudaSpatialTf solver;
    registry.spatial_tf.push_back(&solver);
}

}  // namespace librednn
