// Host convolution, BWD_DATA_ALGO_1: the column matrix w^T dy by one matrix product per image and group, then added
// back to the input positions (col2im). Deterministic.
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvBackwardDataGemm final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_bwd_data_algo_1"; }
    SolverId id() const override { return SolverId::host_conv_bwd_data_algo_1; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_BWD_DATA_ALGO_1; }

    Applicability applicable(const ConvProblem &problem) const override {
        return require_direction(problem, ConvDirection::backward_data);
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.n * s.groups, s.cg));
        return packed_workspace_bytes(problem, threads * s.cg * s.taps * s.out, threads * s.out);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.n * s.groups, s.cg));
        return run_packed(context, problem, buffers, threads * s.cg * s.taps * s.out, threads * s.out,
                          [&](const ConvShape &, const auto &t) { backward_data_gemm(s, t); });
    }
};

}  // namespace

const ConvSolver &host_conv_bwd_data_algo_1_solver() {
    static const HostConvBackwardDataGemm solver;
    return solver;
}

}  // namespace librednn
