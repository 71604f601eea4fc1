// The one problem builder the ~20 convolution entry points share: descriptors in, a validated
// ConvProblem out, and what running one needs (the algorithm's solver, its workspace, the run itself,
// timing for Find).
#pragma once

#include "core/handle.hpp"
#include "descriptors/activation.hpp"
#include "descriptors/convolution.hpp"
#include "descriptors/filter.hpp"
#include "descriptors/tensor.hpp"
#include "ops/conv/problem.hpp"
#include "ops/conv/solvers.hpp"

#include <cudnn.h>

#include <string>

namespace librednn::api {

// Argument names as the direction's functions spell them.
struct ConvArgumentNames {
    const char *x, *w, *y;
};
ConvArgumentNames conv_argument_names(ConvDirection direction);

// `problem` for the descriptors of `direction` (x, w and y as ConvProblem names them: backward data's
// x is dxDesc, both backward directions' y is dyDesc), validated (ops/conv/validate.hpp). Scaling
// factors are left at 1 and 0.
Status convolution_problem_of(ConvDirection direction, const cudnnTensorStruct *x, const cudnnFilterStruct *w,
                              const cudnnConvolutionStruct *conv, const cudnnTensorStruct *y, ConvProblem *problem);

// The epilogue of cudnnConvolutionBiasActivationForward, checked against the problem.
Status add_bias_activation(const cudnnTensorStruct *z, const cudnnTensorStruct *bias,
                           const cudnnActivationStruct *activation, double alpha2, ConvProblem *problem);

// alpha and beta as the problem's types read them (double for double data, float otherwise).
bool conv_scaling_in_double(const ConvProblem &problem);

// A value of the direction's algorithm enum, or BAD_PARAM naming it.
Status check_conv_algorithm(ConvDirection direction, int algorithm);

// The solver of the handle's backend that implements `algorithm` for `problem`, or NOT_SUPPORTED with
// the reason (logged as cuDNN would: "the combination ... is not supported for the algorithm").
Status conv_solver_for(const cudnnContext &handle, const ConvProblem &problem, int algorithm,
                       const ConvSolver **solver);

// The workspace `solver` (conv_solver_for's answer) reports for `problem` to the Get...WorkspaceSize and
// Get/Find...Algorithm calls: for a forward problem, also enough for cudnnConvolutionBiasActivationForward on it.
size_t conv_workspace_bytes(const cudnnContext &handle, const ConvProblem &problem, const ConvSolver &solver);

// Runs `problem` with `algorithm`: checks the workspace (BAD_PARAM when smaller than the solver needs,
// or NULL while needed) and dispatches.
Status run_convolution(const cudnnContext &handle, const ConvProblem &problem, int algorithm,
                       const ConvBuffers &buffers, void *workspace, size_t workspace_bytes);

// One entry of a Get...Algorithm_v7 or Find... answer.
struct ConvAlgorithmResult {
    int algorithm = 0;
    cudnnStatus_t status = CUDNN_STATUS_NOT_SUPPORTED;
    float time = -1.0f;  // milliseconds; -1 where not timed
    size_t memory = 0;
    cudnnDeterminism_t determinism = CUDNN_NON_DETERMINISTIC;
    cudnnMathType_t math_type = CUDNN_DEFAULT_MATH;
};

// Every algorithm of the direction once: those with an applicable solver first, in the registry's
// order of preference, then the others with their status.
std::vector<ConvAlgorithmResult> rank_conv_algorithms(const cudnnContext &handle, const ConvProblem &problem);

// Times every algorithm that can run on the given buffers and workspace (each run once to warm up,
// then the fastest of three), fastest first; the rest follow with their status (ALLOC_FAILED where
// the workspace is too small). The buffers' result tensor is overwritten.
std::vector<ConvAlgorithmResult> find_conv_algorithms(const cudnnContext &handle, const ConvProblem &problem,
                                                      const ConvBuffers &buffers, void *workspace,
                                                      size_t workspace_bytes);

// The memory Find (without Ex) allocates for its runs: the tensors and the largest workspace.
Status find_conv_algorithms_allocating(const cudnnContext &handle, const ConvProblem &problem,
                                       std::vector<ConvAlgorithmResult> *results);

// Copies up to `requested` results into the caller's perf structs (one of the three types).
template <class Perf, class Algo>
Status write_perf_results(const std::vector<ConvAlgorithmResult> &results, int requested, int *returned, Perf *perf) {
    const int count = std::min<int>(requested, static_cast<int>(results.size()));
    for (int i = 0; i < count; ++i) {
        const ConvAlgorithmResult &r = results[static_cast<size_t>(i)];
        Perf entry{};
        entry.algo = static_cast<Algo>(r.algorithm);
        entry.status = r.status;
        entry.time = r.time;
        entry.memory = r.memory;
        entry.determinism = r.determinism;
        entry.mathType = r.math_type;
        perf[i] = entry;
    }
    *returned = count;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
