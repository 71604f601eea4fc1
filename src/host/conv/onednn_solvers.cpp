// Host convolution on oneDNN's direct (jit) convolutions, one solver per direction: forward as
// IMPLICIT_GEMM, backward data as BWD_DATA_ALGO_1, backward filter as BWD_FILTER_ALGO_1. These are the
// cuDNN algorithms that are a deterministic matrix product never forming the column matrix, which is
// what oneDNN's direct implementations compute (im2col + GEMM ones are never planned). Without oneDNN,
// or for a problem it cannot take, applicable() says why and the host's own solvers run.
#include "host/conv/onednn_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvOnednn final : public ConvSolver {
public:
    HostConvOnednn(ConvDirection direction, const char *name, SolverId id, int algorithm)
        : direction_(direction), name_(name), id_(id), algorithm_(algorithm) {}

    const char *name() const override { return name_; }
    SolverId id() const override { return id_; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return algorithm_; }
    // Same bits from run to run at one LIBREDNN_HOST_THREADS; oneDNN may split sums by thread count.
    bool deterministic() const override { return true; }

    Applicability applicable(const ConvProblem &problem) const override {
        Applicability direction = require_direction(problem, direction_);
        if (!direction.ok()) return direction;
        if (problem.epilogue.fused)
            return Applicability::no("the fused bias and activation run on LibreDNN's own solvers, not oneDNN");
        if (problem.spatial_dims < 1 || problem.spatial_dims > 3)
            return Applicability::no_format("oneDNN convolves 1 to 3 spatial dims, not %d", problem.spatial_dims);
        std::string why;
        if (!onednn_conv_plan(problem, &why)) return Applicability::no(why);
        return Applicability::yes();
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        std::string why;
        const auto plan = onednn_conv_plan(problem, &why);
        return plan ? onednn_conv_workspace_bytes(*plan) : 0;
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        std::string why;
        const auto plan = onednn_conv_plan(problem, &why);
        if (!plan) return fail(CUDNN_STATUS_EXECUTION_FAILED, "oneDNN cannot run this problem: %s", why.c_str());
        return run_onednn_conv(*plan, problem, buffers, context.workspace);
    }

private:
    ConvDirection direction_;
    const char *name_;
    SolverId id_;
    int algorithm_;
};

}  // namespace

const ConvSolver &host_conv_fwd_onednn_solver() {
    static const HostConvOnednn solver(ConvDirection::forward, "host_conv_fwd_implicit_gemm_onednn",
                                       SolverId::host_conv_fwd_implicit_gemm_onednn,
                                       CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
    return solver;
}

const ConvSolver &host_conv_bwd_data_onednn_solver() {
    static const HostConvOnednn solver(ConvDirection::backward_data, "host_conv_bwd_data_algo_1_onednn",
                                       SolverId::host_conv_bwd_data_algo_1_onednn, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1);
    return solver;
}

const ConvSolver &host_conv_bwd_filter_onednn_solver() {
    static const HostConvOnednn solver(ConvDirection::backward_filter, "host_conv_bwd_filter_algo_1_onednn",
                                       SolverId::host_conv_bwd_filter_algo_1_onednn,
                                       CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1);
    return solver;
}

}  // namespace librednn
