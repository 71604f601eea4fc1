// The CUDA fused-ops solver: the per-channel kernels of fused_ops.hpp around the CUDA convolution
// solvers (the composition is ops/fused_ops/solvers.hpp's), all on the handle's stream.
#include "cuda/fused_ops/fused_ops_solver.hpp"

#include "cuda/fused_ops/fused_ops.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaFusedOps final : public ComposedFusedOpsSolver {
public:
    const char *name() const override { return "cuda_fused_ops"; }
    SolverId id() const override { return SolverId::cuda_fused_ops; }
    Backend backend() const override { return Backend::cuda; }

protected:
    const char *steps_unsupported_reason(const FusedOpsProblem &problem) const override {
        return cuda::fused_ops_unsupported_reason(problem);
    }
    Status scale_bias_activation(const ExecutionContext &context, const FusedOpsProblem &problem, const void *x,
                                 const void *scale, const void *bias, void *out) const override {
        return cuda::fused_scale_bias_activation(context.stream, problem, x, scale, bias, out);
    }
    Status channel_sums(const ExecutionContext &context, const FusedOpsProblem &problem, const void *y, void *sum,
                        void *square_sum) const override {
        return cuda::fused_channel_sums(context.stream, problem, y, sum, square_sum);
    }
    Status bn_finalize(const ExecutionContext &context, const FusedOpsProblem &problem,
                       const FusedOpsBuffers &buffers) const override {
        return cuda::fused_bn_finalize(context.stream, problem, buffers);
    }
};

}  // namespace

void register_cuda_fused_ops_solvers(SolverRegistry &registry) {
    static const CudaFusedOps solver;
    registry.fused_ops.push_back(&solver);
}

}  // namespace librednn
