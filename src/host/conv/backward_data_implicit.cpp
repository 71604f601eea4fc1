// Host convolution, BWD_DATA_ALGO_0: the transposed sum without a column matrix: per tap and input channel, the
// filter-weighted sum of dy rows, added to the input positions it came from. (cuDNN's ALGO_0 may be non-deterministic;
// this one is not.)
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardDataImplicit final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_data_algo_0"; }
    SolverId id() const override { return SolverId::host_conv_bwd_data_algo_0; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_DATA_ALGO_0; }

    Applicability applicable(const ConvProblem &problem) const override {
        return require_direction(problem, ConvDirection::backward_data);
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.n * s.groups, s.cg));
        return packed_workspace_bytes(problem, threads * s.out, threads * s.out);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.n * s.groups, s.cg));
        return run_packed(context, problem, buffers, threads * s.out, threads * s.out,
                          [&](const ConvShape &, const auto &t) { backward_data_implicit(s, t, Offsets{}); });
    }
};

}  // namespace

const ConvSolver &host_conv_bwd_data_algo_0_solver() {
    static const HostConvBackwardDataImplicit solver;
    return solver;
}

}  // namespace librednn
