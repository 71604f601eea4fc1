// The algorithm queries of cudnnConvolutionBackwardData: cudnnGetConvolutionBackwardDataAlgorithmMaxCount,
// ..._v7 (ranked by the registry, nothing run), cudnnFindConvolutionBackwardDataAlgorithm[Ex] (every applicable
// algorithm timed) and cudnnGetConvolutionBackwardDataWorkspaceSize.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

constexpr librednn::ConvDirection kDirection = librednn::ConvDirection::backward_data;

Status check_requested(int requested, int *returned, const void *perf) {
    LIBREDNN_REQUIRE_NOT_NULL(returned);
    LIBREDNN_REQUIRE_NOT_NULL(perf);
    if (requested < 1)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "requestedAlgoCount is %d, must be at least 1", requested);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardDataAlgorithmMaxCount(cudnnHandle_t handle, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("count", static_cast<const void *>(count));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(count);
        *count = CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardDataAlgorithm_v7(
    cudnnHandle_t handle, const cudnnFilterDescriptor_t filterDesc, const cudnnTensorDescriptor_t diffDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t gradDesc, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionBwdDataAlgoPerf_t *perfResults) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("filterDesc", filterDesc)
            .arg("diffDesc", diffDesc)
            .arg("convDesc", convDesc)
            .arg("gradDesc", gradDesc)
            .arg("requestedAlgoCount", requestedAlgoCount);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(
            librednn::api::convolution_problem_of(kDirection, gradDesc, filterDesc, convDesc, diffDesc, &problem));
        return librednn::api::write_perf_results<cudnnConvolutionBwdDataAlgoPerf_t, cudnnConvolutionBwdDataAlgo_t>(
            librednn::api::rank_conv_algorithms(*handle, problem), requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindConvolutionBackwardDataAlgorithm(
    cudnnHandle_t handle, const cudnnFilterDescriptor_t wDesc, const cudnnTensorDescriptor_t dyDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t dxDesc, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionBwdDataAlgoPerf_t *perfResults) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("wDesc", wDesc)
            .arg("dyDesc", dyDesc)
            .arg("convDesc", convDesc)
            .arg("dxDesc", dxDesc)
            .arg("requestedAlgoCount", requestedAlgoCount);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, dxDesc, wDesc, convDesc, dyDesc, &problem));
        std::vector<librednn::api::ConvAlgorithmResult> results;
        LIBREDNN_CHECK(librednn::api::find_conv_algorithms_allocating(*handle, problem, &results));
        return librednn::api::write_perf_results<cudnnConvolutionBwdDataAlgoPerf_t, cudnnConvolutionBwdDataAlgo_t>(
            results, requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindConvolutionBackwardDataAlgorithmEx(
    cudnnHandle_t handle, const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnTensorDescriptor_t dyDesc,
    const void *dy, const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t dxDesc, void *dx,
    const int requestedAlgoCount, int *returnedAlgoCount, cudnnConvolutionBwdDataAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("wDesc", wDesc)
            .arg("w", static_cast<const void *>(w))
            .arg("dyDesc", dyDesc)
            .arg("dy", static_cast<const void *>(dy))
            .arg("convDesc", convDesc)
            .arg("dxDesc", dxDesc)
            .arg("dx", static_cast<const void *>(dx))
            .arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("workSpace", workSpace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, dxDesc, wDesc, convDesc, dyDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        librednn::ConvBuffers buffers;
        buffers.x = dx;
        buffers.w = w;
        buffers.y = dy;
        buffers.result = dx;
        return librednn::api::write_perf_results<cudnnConvolutionBwdDataAlgoPerf_t, cudnnConvolutionBwdDataAlgo_t>(
            librednn::api::find_conv_algorithms(*handle, problem, buffers, workSpace, workSpaceSizeInBytes),
            requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardDataWorkspaceSize(
    cudnnHandle_t handle, const cudnnFilterDescriptor_t wDesc, const cudnnTensorDescriptor_t dyDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t dxDesc,
    cudnnConvolutionBwdDataAlgo_t algo, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("wDesc", wDesc)
            .arg("dyDesc", dyDesc)
            .arg("convDesc", convDesc)
            .arg("dxDesc", dxDesc)
            .arg("algo", algo)
            .arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, dxDesc, wDesc, convDesc, dyDesc, &problem));
        const librednn::ConvSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::api::conv_solver_for(*handle, problem, static_cast<int>(algo), &solver));
        *sizeInBytes = solver->workspace_bytes(problem);
        return CUDNN_STATUS_SUCCESS;
    });
}
