// Host convolution, BWD_FILTER_ALGO_0: each filter gradient entry as dot products of dy rows with gathered input rows,
// positions found as it runs. (cuDNN's ALGO_0 may be non-deterministic; this one is not.)
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardFilterImplicit final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_filter_algo_0"; }
    SolverId id() const override { return SolverId::host_conv_bwd_filter_algo_0; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0; }

    Applicability applicable(const ConvProblem &problem) const override {
        return require_direction(problem, ConvDirection::backward_filter);
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.groups, s.kg));
        return packed_workspace_bytes(problem, threads * s.out, threads * s.out);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.groups, s.kg));
        return run_packed(context, problem, buffers, threads * s.out, threads * s.out,
                          [&](const ConvShape &, const auto &t) { backward_filter_implicit(s, t, Offsets{}); });
    }
};

}  // namespace

const ConvSolver &host_conv_bwd_filter_algo_0_solver() {
    static const HostConvBackwardFilterImplicit solver;
    return solver;
}

}  // namespace librednn
