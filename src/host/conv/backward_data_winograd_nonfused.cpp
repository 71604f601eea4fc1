// Host convolution, BWD_DATA_ALGO_WINOGRAD_NONFUSED: the nonfused passes on dy and the rotated filter.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardDataWinogradNonfused final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_data_winograd_nonfused"; }
    SolverId id() const override { return SolverId::host_conv_bwd_data_winograd_nonfused; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED; }

    Applicability applicable(const ConvProblem &problem) const override {
        Applicability answer = require_direction(problem, ConvDirection::backward_data);
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

const ConvSolver &host_conv_bwd_data_winograd_nonfused_solver() {
    static const HostConvBackwardDataWinogradNonfused solver;
    return solver;
}

}  // namespace librednn
