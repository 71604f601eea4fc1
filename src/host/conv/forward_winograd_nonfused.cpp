// Host convolution, FWD_ALGO_WINOGRAD_NONFUSED: F(4x4, 3x3) or F(2x2, 5x5), a pass per transform.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvForwardWinogradNonfused final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_fwd_winograd_nonfused"; }
    SolverId id() const override { return SolverId::host_conv_fwd_winograd_nonfused; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED; }

    Applicability applicable(const ConvProblem &problem) const override {
        Applicability answer = require_direction(problem, ConvDirection::forward);
        return answer.ok() ? winograd_applicable(problem, WinogradVariant::nonfused) : answer;
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return winograd_workspace_bytes(problem, WinogradVariant::nonfused);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return run_winograd(context, problem, buffers, WinogradVariant::nonfused);
    }
};

}  // namespace

const ConvSolver &host_conv_fwd_winograd_nonfused_solver() {
    static const HostConvForwardWinogradNonfused solver;
    return solver;
}

}  // namespace librednn
