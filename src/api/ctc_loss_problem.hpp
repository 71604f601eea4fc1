// The problem builder and the run the four CTC loss entry points share (cudnnCTCLoss, cudnnCTCLoss_v8
// and their workspace queries).
#pragma once

#include "core/handle.hpp"
#include "descriptors/ctc_loss.hpp"
#include "descriptors/tensor.hpp"
#include "ops/ctc_loss/solvers.hpp"

namespace librednn::api {

// Where the labels and lengths are: the cuDNN 7 functions take host arrays (`labels` etc. non-NULL here);
// the _v8 functions take arrays in the handle's memory, which the host never reads on CUDA: then pass
// NULL and the workspace is sized by the descriptor's maxLabelLength.
struct CtcLabelArrays {
    const int *labels = nullptr;
    const int *label_lengths = nullptr;
    const int *input_lengths = nullptr;
};

// The validated problem: probsDesc [T, N, A] float, gradientsDesc its dims (NULL for costs only), the
// descriptor set, the algorithm known and, for host arrays, the lengths and labels in range.
// `on_device` says the arrays are in the backend's memory (the _v8 functions).
Status ctc_loss_problem_of(const cudnnContext &handle, cudnnCTCLossAlgo_t algo, const cudnnCTCLossStruct *ctc,
                           const cudnnTensorStruct *probs, const cudnnTensorStruct *gradients, bool on_device,
                           const CtcLabelArrays &arrays, CtcLossProblem *problem);

// The solver of the algorithm `problem` names on the handle's backend, or NOT_SUPPORTED saying why none.
Status ctc_loss_solver_for(const cudnnContext &handle, const CtcLossProblem &problem, const CtcLossSolver **solver);

// Checks the workspace against the solver's and runs it.
Status run_ctc_loss(const cudnnContext &handle, const CtcLossProblem &problem, const CtcLossBuffers &buffers,
                    void *workspace, size_t workspace_bytes);

}  // namespace librednn::api
