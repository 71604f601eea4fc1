// cudnnCTCLoss and cudnnCTCLoss_v8 (costs and gradients of the CTC loss, docs/CTC.md) and their
// workspace queries. The cuDNN 7 pair takes labels and lengths in host memory, the _v8 pair in the
// handle's memory and sizes the workspace by the descriptor's maxLabelLength.
#include "api/ctc_loss_problem.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;
using librednn::api::CtcLabelArrays;

namespace {

// The traced length of each array: one per sequence when probsDesc says how many, else none.
long long sequences_of(const cudnnTensorStruct *probs) {
    if (probs == nullptr || !probs->is_set || probs->nb_dims != 3) return 0;
    return probs->dims[1];
}

Status workspace_size(const cudnnContext &handle, const librednn::CtcLossProblem &problem, size_t *sizeInBytes) {
    const librednn::CtcLossSolver *solver = nullptr;
    LIBREDNN_CHECK(librednn::api::ctc_loss_solver_for(handle, problem, &solver));
    *sizeInBytes = solver->workspace_bytes(problem);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnCTCLoss(cudnnHandle_t handle, const cudnnTensorDescriptor_t probsDesc, const void *probs,
                                       const int hostLabels[], const int hostLabelLengths[],
                                       const int hostInputLengths[], void *costs,
                                       const cudnnTensorDescriptor_t gradientsDesc, void *gradients,
                                       cudnnCTCLossAlgo_t algo, cudnnCTCLossDescriptor_t ctcLossDesc, void *workspace,
                                       size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        const long long n = sequences_of(probsDesc);
        call.handle(handle).arg("probsDesc", probsDesc).arg("probs", probs);
        call.array("hostLabelLengths", hostLabelLengths, n, n).array("hostInputLengths", hostInputLengths, n, n);
        call.arg("hostLabels", static_cast<const void *>(hostLabels)).arg("costs", costs);
        call.arg("gradientsDesc", gradientsDesc).arg("gradients", gradients).arg("algo", algo);
        call.arg("ctcLossDesc", ctcLossDesc).arg("workspace", workspace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        if (gradients != nullptr) LIBREDNN_REQUIRE_NOT_NULL(gradientsDesc);
        librednn::CtcLossProblem problem;
        LIBREDNN_CHECK(librednn::api::ctc_loss_problem_of(
            *handle, algo, ctcLossDesc, probsDesc, gradients != nullptr ? gradientsDesc : nullptr, false,
            CtcLabelArrays{hostLabels, hostLabelLengths, hostInputLengths}, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(probs);
        LIBREDNN_REQUIRE_NOT_NULL(costs);
        librednn::CtcLossBuffers buffers{probs, hostLabels, hostLabelLengths, hostInputLengths, costs, gradients};
        return librednn::api::run_ctc_loss(*handle, problem, buffers, workspace, workSpaceSizeInBytes);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnCTCLoss_v8(cudnnHandle_t handle, cudnnCTCLossAlgo_t algo,
                                          cudnnCTCLossDescriptor_t ctcLossDesc, const cudnnTensorDescriptor_t probsDesc,
                                          const void *probs, const int labels[], const int labelLengths[],
                                          const int inputLengths[], void *costs,
                                          const cudnnTensorDescriptor_t gradientsDesc, void *gradients,
                                          size_t workSpaceSizeInBytes, void *workspace) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("algo", algo).arg("ctcLossDesc", ctcLossDesc).arg("probsDesc", probsDesc);
        call.arg("probs", probs).arg("labels", static_cast<const void *>(labels));
        call.arg("labelLengths", static_cast<const void *>(labelLengths));
        call.arg("inputLengths", static_cast<const void *>(inputLengths)).arg("costs", costs);
        call.arg("gradientsDesc", gradientsDesc).arg("gradients", gradients);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("workspace", workspace);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(labels);
        LIBREDNN_REQUIRE_NOT_NULL(labelLengths);
        LIBREDNN_REQUIRE_NOT_NULL(inputLengths);
        if (gradients != nullptr) LIBREDNN_REQUIRE_NOT_NULL(gradientsDesc);
        librednn::CtcLossProblem problem;
        LIBREDNN_CHECK(librednn::api::ctc_loss_problem_of(
            *handle, algo, ctcLossDesc, probsDesc, gradients != nullptr ? gradientsDesc : nullptr, true,
            CtcLabelArrays{labels, labelLengths, inputLengths}, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(probs);
        LIBREDNN_REQUIRE_NOT_NULL(costs);
        librednn::CtcLossBuffers buffers{probs, labels, labelLengths, inputLengths, costs, gradients};
        return librednn::api::run_ctc_loss(*handle, problem, buffers, workspace, workSpaceSizeInBytes);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetCTCLossWorkspaceSize(cudnnHandle_t handle, const cudnnTensorDescriptor_t probsDesc,
                                                       const cudnnTensorDescriptor_t gradientsDesc, const int *labels,
                                                       const int *labelLengths, const int *inputLengths,
                                                       cudnnCTCLossAlgo_t algo, cudnnCTCLossDescriptor_t ctcLossDesc,
                                                       size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        const long long n = sequences_of(probsDesc);
        call.handle(handle).arg("probsDesc", probsDesc).arg("gradientsDesc", gradientsDesc);
        call.arg("labels", static_cast<const void *>(labels));
        call.array("labelLengths", labelLengths, n, n).array("inputLengths", inputLengths, n, n);
        call.arg("algo", algo).arg("ctcLossDesc", ctcLossDesc);
        call.arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::CtcLossProblem problem;
        LIBREDNN_CHECK(librednn::api::ctc_loss_problem_of(*handle, algo, ctcLossDesc, probsDesc, gradientsDesc, false,
                                                          CtcLabelArrays{labels, labelLengths, inputLengths},
                                                          &problem));
        return workspace_size(*handle, problem, sizeInBytes);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetCTCLossWorkspaceSize_v8(cudnnHandle_t handle, cudnnCTCLossAlgo_t algo,
                                                          cudnnCTCLossDescriptor_t ctcLossDesc,
                                                          const cudnnTensorDescriptor_t probsDesc,
                                                          const cudnnTensorDescriptor_t gradientsDesc,
                                                          size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("algo", algo).arg("ctcLossDesc", ctcLossDesc).arg("probsDesc", probsDesc);
        call.arg("gradientsDesc", gradientsDesc).arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::CtcLossProblem problem;
        LIBREDNN_CHECK(librednn::api::ctc_loss_problem_of(*handle, algo, ctcLossDesc, probsDesc, gradientsDesc, true,
                                                          CtcLabelArrays{}, &problem));
        return workspace_size(*handle, problem, sizeInBytes);
    });
}
