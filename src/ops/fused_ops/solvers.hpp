// The fused-ops solvers, in the order dispatch tries them (ops/common/registry.hpp), and the shape every
// backend's fused-ops solver shares: the convolution runs on the backend's own convolution solvers,
// between per-channel steps the backend supplies (the scale-bias-activation prologue into the
// workspace, the per-channel sums of y, the batch-norm finalization).
#pragma once

#include "ops/common/solver.hpp"
#include "ops/conv/solvers.hpp"
#include "ops/fused_ops/problem.hpp"

#include <string>
#include <vector>

namespace librednn {

using FusedOpsSolver = Solver<FusedOpsProblem, FusedOpsBuffers>;

const std::vector<const FusedOpsSolver *> &fused_ops_solvers();

class ComposedFusedOpsSolver : public FusedOpsSolver {
public:
    Applicability applicable(const FusedOpsProblem &problem) const override;
    // The prologue's output (x's span, in x's type, rounded up to 256 bytes) and the convolution's workspace.
    size_t workspace_bytes(const FusedOpsProblem &problem) const override;
    Status run(const ExecutionContext &context, const FusedOpsProblem &problem,
               const FusedOpsBuffers &buffers) const override;

    // The first applicable convolution solver of this backend for the problem's convolution (the one
    // the default dispatch would take), or nullptr with *reason listing why each was skipped.
    const ConvSolver *conv_solver(const FusedOpsProblem &problem, std::string *reason) const;

protected:
    // Why the backend's per-channel steps cannot take `problem`; nullptr when they can.
    virtual const char *steps_unsupported_reason(const FusedOpsProblem &problem) const = 0;
    // out = act(x * scale[c] + bias[c]) rounded to x's type, in x's geometry; scale or bias nullptr
    // where the problem has none.
    virtual Status scale_bias_activation(const ExecutionContext &context, const FusedOpsProblem &problem, const void *x,
                                         const void *scale, const void *bias, void *out) const = 0;
    // sum[k] and square_sum[k] over y's N and spatial dims (problem.conv.y); either may be nullptr.
    virtual Status channel_sums(const ExecutionContext &context, const FusedOpsProblem &problem, const void *y,
                                void *sum, void *square_sum) const = 0;
    // Both finalize ops, as FusedOpsProblem describes them.
    virtual Status bn_finalize(const ExecutionContext &context, const FusedOpsProblem &problem,
                               const FusedOpsBuffers &buffers) const = 0;
};

}  // namespace librednn
