// What the legacy RNN entry points (cudnnRNNForwardInference, ...Training, ...BackwardData, ...BackwardWeights,
// their Ex variants and the Find...AlgorithmEx calls) share once they have built their problem: the space
// checks, the dispatch to the same RNN solvers as the v8 API, and the timing of the Find calls.
#pragma once

#include "core/handle.hpp"
#include "descriptors/filter.hpp"
#include "descriptors/rnn.hpp"
#include "descriptors/tensor.hpp"
#include "ops/rnn/solvers.hpp"

#include <cudnn.h>

namespace librednn::api {

// The workspace and reserve space a legacy call gives (the weights are checked through their filter).
struct RnnSpaces {
    void *workspace = nullptr;
    size_t workspace_bytes = 0;
    void *reserve = nullptr;  // training forward and the backward passes only
    size_t reserve_bytes = 0;
};

// The arguments of cudnnRNNForwardInference and cudnnRNNForwardTraining (and of their Find calls).
struct RnnLegacyForward {
    int seq_length = 0;
    const cudnnTensorDescriptor_t *x_desc = nullptr;
    const void *x = nullptr;
    cudnnTensorDescriptor_t hx_desc = nullptr;
    const void *hx = nullptr;
    cudnnTensorDescriptor_t cx_desc = nullptr;
    const void *cx = nullptr;
    cudnnFilterDescriptor_t w_desc = nullptr;
    const void *w = nullptr;
    const cudnnTensorDescriptor_t *y_desc = nullptr;
    void *y = nullptr;
    cudnnTensorDescriptor_t hy_desc = nullptr;
    void *hy = nullptr;
    cudnnTensorDescriptor_t cy_desc = nullptr;
    void *cy = nullptr;
};
// Their problem (the legacy layout is the packed sequence-major one) and buffers, validated.
Status rnn_legacy_forward_of(const cudnnRNNStruct *rnn, bool training, const RnnLegacyForward &args,
                             RnnProblem *problem, RnnBuffers *buffers);

// The solver dispatch chooses for `problem` on the handle's backend, and the checks of `spaces` against it:
// workspace below cudnnGetRNNWorkspaceSize's, reserve below cudnnGetRNNTrainingReserveSize's (training
// forward, backward passes) or either NULL while needed are CUDNN_STATUS_BAD_PARAM.
Status select_rnn_solver(const cudnnContext &handle, const RnnProblem &problem, const RnnSpaces &spaces,
                         const RnnSolver **solver);

// Selects, checks and runs.
Status run_rnn(const cudnnContext &handle, const RnnProblem &problem, const RnnBuffers &buffers,
               const RnnSpaces &spaces);

// The legacy Find...AlgorithmEx calls: every solver of the handle's backend that can run `problem` runs it
// once on the caller's buffers, timed (so the outputs hold what the call itself computes; backward weights
// adds once per solver run), and the results, fastest first, go into perfResults: the RNN descriptor's
// algorithm `algo` (the solver is how LibreDNN runs it), the status, the milliseconds and the workspace it
// needs. No applicable solver: NOT_SUPPORTED with dispatch's reason.
Status find_rnn_algorithms(const cudnnContext &handle, cudnnRNNAlgo_t algo, const RnnProblem &problem,
                           const RnnBuffers &buffers, const RnnSpaces &spaces, int requested, int *returned,
                           cudnnAlgorithmPerformance_t *results);

// cudnnGet...AlgorithmMaxCount: how many results Find can give, the RNN solvers of the handle's backend (at
// least 1: the descriptor's algorithm, reported NOT_SUPPORTED where no solver runs it).
int rnn_algorithm_max_count(const cudnnContext &handle);

}  // namespace librednn::api
