// Host convolution, BWD_FILTER_ALGO_3: ALGO_0's sum with the input positions precomputed in a table in the workspace.
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardFilterPrecomp final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_filter_algo_3"; }
    SolverId id() const override { return SolverId::host_conv_bwd_filter_algo_3; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3; }

    Applicability applicable(const ConvProblem &problem) const override {
        return require_direction(problem, ConvDirection::backward_filter);
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.groups, s.kg));
        return packed_workspace_bytes(problem, threads * s.out, s.taps * s.out);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.groups, s.kg));
        return run_packed(context, problem, buffers, threads * s.out, s.taps * s.out,
                          [&](const ConvShape &, const auto &t) {
                              fill_offset_table(s, t.index);
                              backward_filter_implicit(s, t, Offsets{t.index});
                          });
    }
};

}  // namespace

const ConvSolver &host_conv_bwd_filter_algo_3_solver() {
    static const HostConvBackwardFilterPrecomp solver;
    return solver;
}

}  // namespace librednn
