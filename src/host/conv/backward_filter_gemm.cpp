// Host convolution, BWD_FILTER_ALGO_1: per image, the column matrix of its windows (im2col), then dw += dy col^T.
// Deterministic.
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardFilterGemm final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_filter_algo_1"; }
    SolverId id() const override { return SolverId::host_conv_bwd_filter_algo_1; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1; }

    Applicability applicable(const ConvProblem &problem) const override {
        return require_direction(problem, ConvDirection::backward_filter);
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.groups, s.kg));
        return packed_workspace_bytes(problem, threads * s.cg * s.taps * s.out, threads * s.out);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.groups, s.kg));
        return run_packed(context, problem, buffers, threads * s.cg * s.taps * s.out, threads * s.out,
                          [&](const ConvShape &, const auto &t) { backward_filter_gemm(s, t); });
    }
};

}  // namespace

const ConvSolver &host_conv_bwd_filter_algo_1_solver() {
    static const HostConvBackwardFilterGemm solver;
    return solver;
}

}  // namespace librednn
