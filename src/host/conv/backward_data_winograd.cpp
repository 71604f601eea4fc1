// Host convolution, BWD_DATA_ALGO_WINOGRAD: fused F(2x2, 3x3) of dy with the rotated, transposed filter.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardDataWinograd final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_data_winograd"; }
    SolverId id() const override { return SolverId::host_conv_bwd_data_winograd; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD; }

    Applicability applicable(const ConvProblem &problem) const override {
        Applicability answer = require_direction(problem, ConvDirection::backward_data);
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

const ConvSolver &host_conv_bwd_data_winograd_solver() {
    static const HostConvBackwardDataWinograd solver;
    return solver;
}

}  // namespace librednn
