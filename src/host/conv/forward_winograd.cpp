// Host convolution, FWD_ALGO_WINOGRAD: F(2x2, 3x3) tile by tile (host/conv/winograd.hpp).
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvForwardWinograd final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_fwd_winograd"; }
    SolverId id() const override { return SolverId::host_conv_fwd_winograd; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD; }

    Applicability applicable(const ConvProblem &problem) const override {
        Applicability answer = require_direction(problem, ConvDirection::forward);
        return answer.ok() ? winograd_applicable(problem, WinogradVariant::fused) : answer;
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        return winograd_workspace_bytes(problem, WinogradVariant::fused);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        return run_winograd(context, problem, buffers, WinogradVariant::fused);
    }
};

}  // namespace

const ConvSolver &host_conv_fwd_winograd_solver() {
    static const HostConvForwardWinograd solver;
    return solver;
}

}  // namespace librednn
