// The CUDA CTC loss solvers: both algorithms hand the problem to the one kernel (ctc_loss.hpp) on the
// handle's stream. cuDNN allows CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC to vary between runs; this one does
// not, and says so.
#include "cuda/ctc_loss/ctc_loss_solver.hpp"

#include "cuda/ctc_loss/ctc_loss.hpp"
#include "ops/common/registry.hpp"

namespace librednn {

namespace {

class CudaCtcLoss final : public CtcLossSolver {
public:
    explicit CudaCtcLoss(cudnnCTCLossAlgo_t algorithm) : algorithm_(algorithm) {}

    const char *name() const override {
        return algorithm_ == CUDNN_CTC_LOSS_ALGO_DETERMINISTIC ? "cuda_ctc_loss_deterministic"
                                                               : "cuda_ctc_loss_non_deterministic";
    }
    SolverId id() const override {
        return algorithm_ == CUDNN_CTC_LOSS_ALGO_DETERMINISTIC ? SolverId::cuda_ctc_loss_deterministic
                                                               : SolverId::cuda_ctc_loss_non_deterministic;
    }
    int algorithm() const override { return static_cast<int>(algorithm_); }
    Backend backend() const override { return Backend::cuda; }
    Applicability applicable(const CtcLossProblem &) const override { return Applicability::yes(); }
    size_t workspace_bytes(const CtcLossProblem &problem) const override { return ctc_loss_workspace_bytes(problem); }

    Status run(const ExecutionContext &context, const CtcLossProblem &problem,
               const CtcLossBuffers &buffers) const override {
        return cuda::ctc_loss(context.stream, problem, buffers, context.workspace);
    }

private:
    cudnnCTCLossAlgo_t algorithm_;
};

}  // namespace

void register_cuda_ctc_loss_solvers(SolverRegistry &registry) {
    static const CudaCtcLoss deterministic(CUDNN_CTC_LOSS_ALGO_DETERMINISTIC);
    static const CudaCtcLoss non_deterministic(CUDNN_CTC_LOSS_ALGO_NON_DETERMINISTIC);
    registry.ctc_loss.push_back(&deterministic);
    registry.ctc_loss.push_back(&non_deterministic);
}

}  // namespace librednn
