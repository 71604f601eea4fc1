// Host convolution, GEMM: each image's windows copied into a column matrix (im2col) in the workspace, then one matrix
// product with the filter per group.
#include "host/conv/solvers.hpp"
#include "host/conv/sums.hpp"
#include "ops/conv/validate.hpp"

namespace librednn {

namespace {

using namespace host::conv;

class HostConvForwardGemm final : public ConvSolver {
public:
    const char *name() const override { return "host_conv_fwd_gemm"; }
    SolverId id() const override { return SolverId::host_conv_fwd_gemm; }
    Backend backend() const override { return Backend::host; }
    int algorithm() const override { return CUDNN_CONVOLUTION_FWD_ALGO_GEMM; }

    Applicability applicable(const ConvProblem &problem) const override {
        Applicability answer = require_direction(problem, ConvDirection::forward);
        if (!answer.ok()) return answer;
        if (const char *reason = int8_algorithm_refusal(problem, CUDNN_CONVOLUTION_FWD_ALGO_GEMM))
            return Applicability::no(reason);
        return answer;
    }

    size_t workspace_bytes(const ConvProblem &problem) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.n * s.groups, s.kg));
        return packed_workspace_bytes(problem, threads * s.cg * s.taps * s.out, threads * s.out);
    }

    Status run(const ExecutionContext &context, const ConvProblem &problem, const ConvBuffers &buffers) const override {
        const ConvShape s = shape_of(problem);
        const int64_t threads = parts_of(Split(s.n * s.groups, s.kg));
        return run_packed(context, problem, buffers, threads * s.cg * s.taps * s.out, threads * s.out,
                          [&](const ConvShape &, const auto &t) { forward_gemm(s, t); });
    }
};

}  // namespace

const ConvSolver &host_conv_fwd_gemm_solver() {
    static const HostConvForwardGemm solver;
    return solver;
}

}  // namespace librednn
