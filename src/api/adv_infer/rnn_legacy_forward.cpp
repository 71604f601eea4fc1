// The legacy API's forward inference and its sizes: cudnnGetRNNWorkspaceSize, cudnnGetRNNTrainingReserveSize,
// cudnnRNNForwardInference, cudnnRNNForwardInferenceEx, and the algorithm calls (cudnnSetRNNAlgorithmDescriptor,
// cudnnGetRNNForwardInferenceAlgorithmMaxCount, cudnnFindRNNForwardInferenceAlgorithmEx). Each builds the same
// RnnProblem as the v8 API (the legacy arrays of step descriptors are the packed sequence-major layout) and
// runs the same solvers.
#include "api/entry.hpp"
#include "api/rnn_legacy.hpp"
#include "api/rnn_problem.hpp"
#include "descriptors/algorithm.hpp"
#include "ops/common/dispatch.hpp"

#include <algorithm>

using librednn::Status;
using librednn::api::Call;

namespace {

// The Ex calls' attention arguments, which cuDNN reserves: any of them not NULL is NOT_SUPPORTED.
Status require_no_attention(std::initializer_list<std::pair<const char *, const void *>> arguments) {
    for (const auto &[name, value] : arguments)
        if (value != nullptr)
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "%s is not NULL; cuDNN reserves it and it must be NULL",
                                  name);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetRNNWorkspaceSize(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                   const int seqLength, const cudnnTensorDescriptor_t *xDesc,
                                                   size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength);
        call.arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(librednn::api::rnn_legacy_problem_of(rnnDesc, false, seqLength, xDesc, "xDesc", nullptr, "yDesc",
                                                            &problem));
        // One size for every pass, as cuDNN's: the largest any applicable solver needs. Inference must have a
        // solver; training and the backward passes count where they have one.
        const librednn::RnnSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::select_solver(librednn::rnn_solvers(), handle->backend, problem, "rnn", &solver));
        size_t bytes = solver->workspace_bytes(problem);
        problem.training = true;
        for (librednn::RnnDirection direction : {librednn::RnnDirection::forward, librednn::RnnDirection::backward_data,
                                                 librednn::RnnDirection::backward_weights}) {
            problem.direction = direction;
            bytes =
                std::max(bytes, librednn::dispatch_workspace_bytes(librednn::rnn_solvers(), handle->backend, problem));
        }
        *sizeInBytes = bytes;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNTrainingReserveSize(cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc,
                                                         const int seqLength, const cudnnTensorDescriptor_t *xDesc,
                                                         size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength);
        call.arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(
            librednn::api::rnn_legacy_problem_of(rnnDesc, true, seqLength, xDesc, "xDesc", nullptr, "yDesc", &problem));
        const librednn::RnnSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::select_solver(librednn::rnn_solvers(), handle->backend, problem, "rnn", &solver));
        *sizeInBytes = librednn::rnn_reserve_bytes(problem);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNForwardInference(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *xDesc,
    const void *x, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc,
    const void *cx, const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t *yDesc, void *y,
    const cudnnTensorDescriptor_t hyDesc, void *hy, const cudnnTensorDescriptor_t cyDesc, void *cy, void *workSpace,
    size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength).arg("x", x);
        call.arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx).arg("wDesc", wDesc).arg("w", w);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", static_cast<const void *>(y));
        call.arg("hyDesc", hyDesc).arg("hy", static_cast<const void *>(hy));
        call.arg("cyDesc", cyDesc).arg("cy", static_cast<const void *>(cy));
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(librednn::api::rnn_legacy_forward_of(
            rnnDesc, false,
            librednn::api::RnnLegacyForward{seqLength, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc, w, yDesc, y, hyDesc, hy,
                                            cyDesc, cy},
            &problem, &buffers));
        librednn::api::RnnSpaces spaces;
        spaces.workspace = workSpace;
        spaces.workspace_bytes = workSpaceSizeInBytes;
        return librednn::api::run_rnn(*handle, problem, buffers, spaces);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnRNNForwardInferenceEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const cudnnRNNDataDescriptor_t xDesc, const void *x,
    const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc, const void *cx,
    const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnRNNDataDescriptor_t yDesc, void *y,
    const cudnnTensorDescriptor_t hyDesc, void *hy, const cudnnTensorDescriptor_t cyDesc, void *cy,
    const cudnnRNNDataDescriptor_t kDesc, const void *keys, const cudnnRNNDataDescriptor_t cDesc, void *cAttn,
    const cudnnRNNDataDescriptor_t iDesc, void *iAttn, const cudnnRNNDataDescriptor_t qDesc, void *queries,
    void *workSpace, size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("xDesc", xDesc).arg("x", x);
        call.arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx).arg("wDesc", wDesc).arg("w", w);
        call.arg("yDesc", yDesc).arg("y", static_cast<const void *>(y));
        call.arg("hyDesc", hyDesc).arg("hy", static_cast<const void *>(hy));
        call.arg("cyDesc", cyDesc).arg("cy", static_cast<const void *>(cy));
        call.arg("kDesc", kDesc).arg("keys", keys).arg("cDesc", cDesc).arg("cAttn", static_cast<const void *>(cAttn));
        call.arg("iDesc", iDesc).arg("iAttn", static_cast<const void *>(iAttn)).arg("qDesc", qDesc);
        call.arg("queries", static_cast<const void *>(queries));
        call.arg("workSpace", static_cast<const void *>(workSpace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(require_no_attention({{"kDesc", kDesc},
                                             {"keys", keys},
                                             {"cDesc", cDesc},
                                             {"cAttn", cAttn},
                                             {"iDesc", iDesc},
                                             {"iAttn", iAttn},
                                             {"qDesc", qDesc},
                                             {"queries", queries}}));
        LIBREDNN_REQUIRE_NOT_NULL(yDesc);
        librednn::RnnProblem problem;
        LIBREDNN_CHECK(librednn::api::rnn_ex_problem_of(rnnDesc, false, xDesc, yDesc, &problem));
        using librednn::api::RnnState;
        LIBREDNN_CHECK(librednn::api::apply_rnn_states({{RnnState::hx, hxDesc, "hxDesc", hx},
                                                        {RnnState::cx, cxDesc, "cxDesc", cx},
                                                        {RnnState::hy, hyDesc, "hyDesc", hy},
                                                        {RnnState::cy, cyDesc, "cyDesc", cy}},
                                                       &problem));
        LIBREDNN_CHECK(librednn::api::check_rnn_weight_filter(wDesc, "wDesc", problem.net));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        librednn::RnnBuffers buffers;
        buffers.x = x;
        buffers.y = y;
        buffers.hx = problem.has_hx ? hx : nullptr;
        buffers.hy = problem.has_hy ? hy : nullptr;
        buffers.cx = problem.has_cx ? cx : nullptr;
        buffers.cy = problem.has_cy ? cy : nullptr;
        buffers.weights = w;
        librednn::api::RnnSpaces spaces;
        spaces.workspace = workSpace;
        spaces.workspace_bytes = workSpaceSizeInBytes;
        return librednn::api::run_rnn(*handle, problem, buffers, spaces);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetRNNAlgorithmDescriptor(cudnnHandle_t handle, cudnnRNNDescriptor_t rnnDesc,
                                                         cudnnAlgorithmDescriptor_t algoDesc) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", static_cast<const void *>(rnnDesc)).arg("algoDesc", algoDesc);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(algoDesc);
        LIBREDNN_CHECK(librednn::require_algorithm_set(*algoDesc, "algoDesc"));
        return librednn::set_rnn_algorithm(rnnDesc, algoDesc->algorithm.algo.RNNAlgo);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetRNNForwardInferenceAlgorithmMaxCount(cudnnHandle_t handle,
                                                                       const cudnnRNNDescriptor_t rnnDesc, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("count", static_cast<const void *>(count));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(rnnDesc);
        LIBREDNN_REQUIRE_NOT_NULL(count);
        LIBREDNN_CHECK(librednn::require_rnn_set(*rnnDesc, "rnnDesc"));
        *count = librednn::api::rnn_algorithm_max_count(*handle);
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindRNNForwardInferenceAlgorithmEx(
    cudnnHandle_t handle, const cudnnRNNDescriptor_t rnnDesc, const int seqLength, const cudnnTensorDescriptor_t *xDesc,
    const void *x, const cudnnTensorDescriptor_t hxDesc, const void *hx, const cudnnTensorDescriptor_t cxDesc,
    const void *cx, const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t *yDesc, void *y,
    const cudnnTensorDescriptor_t hyDesc, void *hy, const cudnnTensorDescriptor_t cyDesc, void *cy,
    const float findIntensity, const int requestedAlgoCount, int *returnedAlgoCount,
    cudnnAlgorithmPerformance_t *perfResults, void *workspace, size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("rnnDesc", rnnDesc).arg("seqLength", seqLength);
        call.array("xDesc", xDesc, seqLength, seqLength).arg("x", x);
        call.arg("hxDesc", hxDesc).arg("hx", hx).arg("cxDesc", cxDesc).arg("cx", cx).arg("wDesc", wDesc).arg("w", w);
        call.array("yDesc", yDesc, seqLength, seqLength).arg("y", static_cast<const void *>(y));
        call.arg("hyDesc", hyDesc).arg("hy", static_cast<const void *>(hy));
        call.arg("cyDesc", cyDesc).arg("cy", static_cast<const void *>(cy));
        call.arg("findIntensity", findIntensity).arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("returnedAlgoCount", static_cast<const void *>(returnedAlgoCount));
        call.arg("perfResults", static_cast<const void *>(perfResults));
        call.arg("workspace", static_cast<const void *>(workspace)).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::RnnProblem problem;
        librednn::RnnBuffers buffers;
        LIBREDNN_CHECK(librednn::api::rnn_legacy_forward_of(
            rnnDesc, false,
            librednn::api::RnnLegacyForward{seqLength, xDesc, x, hxDesc, hx, cxDesc, cx, wDesc, w, yDesc, y, hyDesc, hy,
                                            cyDesc, cy},
            &problem, &buffers));
        librednn::api::RnnSpaces spaces;
        spaces.workspace = workspace;
        spaces.workspace_bytes = workSpaceSizeInBytes;
        return librednn::api::find_rnn_algorithms(*handle, rnnDesc->algo, problem, buffers, spaces, requestedAlgoCount,
                                                  returnedAlgoCount, perfResults);
    });
}
