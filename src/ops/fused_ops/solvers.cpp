// The fused-ops solver list, and the composition every backend's fused-ops solver shares.
#include "ops/fused_ops/solvers.hpp"

#include "core/data_type.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/common/registry.hpp"

#include <cstdint>

namespace librednn {

const std::vector<const FusedOpsSolver *> &fused_ops_solvers() { return solver_registry().fused_ops; }

namespace {

constexpr size_t kWorkspaceAlignment = 256;

size_t prologue_bytes(const FusedOpsProblem &problem) {
    if (!problem.convolves() || !problem.has_prologue()) return 0;
    const size_t bytes = static_cast<size_t>(problem.conv.x.span_elements()) * data_type_size(problem.conv.x.dtype);
    return (bytes + kWorkspaceAlignment - 1) / kWorkspaceAlignment * kWorkspaceAlignment;
}

}  // namespace

const ConvSolver *ComposedFusedOpsSolver::conv_solver(const FusedOpsProblem &problem, std::string *reason) const {
    reason->clear();
    for (const ConvSolver *solver : conv_solvers(problem.conv.direction)) {
        if (solver->backend() != backend()) continue;
        if (solver_disabled_by_environment(solver->name())) {
            *reason += std::string(reason->empty() ? "" : "; ") + solver->name() +
                       ": switched off by LIBREDNN_DISABLE_SOLVERS";
            continue;
        }
        const Applicability answer = solver->applicable(problem.conv);
        if (answer.ok()) return solver;
        *reason += std::string(reason->empty() ? "" : "; ") + solver->name() + ": " + answer.reason();
    }
    if (reason->empty()) *reason = "this backend has no convolution solver";
    return nullptr;
}

Applicability ComposedFusedOpsSolver::applicable(const FusedOpsProblem &problem) const {
    if (const char *reason = steps_unsupported_reason(problem)) return Applicability::no(reason);
    if (!problem.convolves()) return Applicability::yes();
    std::string reason;
    if (conv_solver(problem, &reason) == nullptr)
        return Applicability::no("no convolution solver takes the fused convolution (" + reason + ")");
    return Applicability::yes();
}

size_t ComposedFusedOpsSolver::workspace_bytes(const FusedOpsProblem &problem) const {
    if (!problem.convolves()) return 0;
    std::string reason;
    const ConvSolver *solver = conv_solver(problem, &reason);
    return prologue_bytes(problem) + (solver ? solver->workspace_bytes(problem.conv) : 0);
}

Status ComposedFusedOpsSolver::run(const ExecutionContext &context, const FusedOpsProblem &problem,
                                   const FusedOpsBuffers &buffers) const {
    if (!problem.convolves()) return bn_finalize(context, problem, buffers);

    std::string reason;
    const ConvSolver *solver = conv_solver(problem, &reason);
    if (solver == nullptr)
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "no convolution solver takes the fused convolution (%s)",
                    reason.c_str());
    // The prologue writes x' to the front of the workspace; the convolution gets the rest.
    const size_t front = prologue_bytes(problem);
    const void *conv_x = buffers.x;
    if (problem.has_prologue()) {
        LIBREDNN_CHECK(scale_bias_activation(context, problem, buffers.x,
                                             problem.has_scale ? buffers.eq_scale : nullptr,
                                             problem.has_bias ? buffers.eq_bias : nullptr, context.workspace));
        conv_x = context.workspace;
    }
    ExecutionContext conv_context = context;
    conv_context.workspace = front == 0 ? context.workspace : static_cast<uint8_t *>(context.workspace) + front;
    conv_context.workspace_bytes = context.workspace_bytes - front;
    if (conv_context.workspace_bytes == 0) conv_context.workspace = nullptr;

    ConvBuffers conv_buffers;
    conv_buffers.x = conv_x;
    if (problem.conv.direction == ConvDirection::forward) {
        conv_buffers.w = buffers.w;
        conv_buffers.result = buffers.y;
    } else {
        conv_buffers.y = buffers.dy;
        conv_buffers.result = buffers.dw;
    }
    LIBREDNN_CHECK(solver->run(conv_context, problem.conv, conv_buffers));

    if (problem.ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS && (problem.has_sum || problem.has_square_sum))
        return channel_sums(context, problem, buffers.y, problem.has_sum ? buffers.y_sum : nullptr,
                            problem.has_square_sum ? buffers.y_square_sum : nullptr);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn
