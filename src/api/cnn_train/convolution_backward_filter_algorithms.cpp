// The algorithm queries of cudnnConvolutionBackwardFilter: cudnnGetConvolutionBackwardFilterAlgorithmMaxCount,
// ..._v7 (ranked by the registry, nothing run), cudnnFindConvolutionBackwardFilterAlgorithm[Ex] (every applicable
// algorithm timed) and cudnnGetConvolutionBackwardFilterWorkspaceSize.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

constexpr librednn::ConvDirection kDirection = librednn::ConvDirection::backward_filter;

Status check_requested(int requested, int *returned, const void *perf) {
    LIBREDNN_REQUIRE_NOT_NULL(returned);
    LIBREDNN_REQUIRE_NOT_NULL(perf);
    if (requested < 1)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "requestedAlgoCount is %d, must be at least 1", requested);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(cudnnHandle_t handle, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("count", static_cast<const void *>(count));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(count);
        *count = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardFilterAlgorithm_v7(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t srcDesc, const cudnnTensorDescriptor_t diffDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnFilterDescriptor_t gradDesc, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionBwdFilterAlgoPerf_t *perfResults) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("srcDesc", srcDesc)
            .arg("diffDesc", diffDesc)
            .arg("convDesc", convDesc)
            .arg("gradDesc", gradDesc)
            .arg("requestedAlgoCount", requestedAlgoCount);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(
            librednn::api::convolution_problem_of(kDirection, srcDesc, gradDesc, convDesc, diffDesc, &problem));
        return librednn::api::write_perf_results<cudnnConvolutionBwdFilterAlgoPerf_t, cudnnConvolutionBwdFilterAlgo_t>(
            librednn::api::rank_conv_algorithms(*handle, problem), requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindConvolutionBackwardFilterAlgorithm(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t dyDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnFilterDescriptor_t dwDesc, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionBwdFilterAlgoPerf_t *perfResults) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("xDesc", xDesc)
            .arg("dyDesc", dyDesc)
            .arg("convDesc", convDesc)
            .arg("dwDesc", dwDesc)
            .arg("requestedAlgoCount", requestedAlgoCount);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, xDesc, dwDesc, convDesc, dyDesc, &problem));
        std::vector<librednn::api::ConvAlgorithmResult> results;
        LIBREDNN_CHECK(librednn::api::find_conv_algorithms_allocating(*handle, problem, &results));
        return librednn::api::write_perf_results<cudnnConvolutionBwdFilterAlgoPerf_t, cudnnConvolutionBwdFilterAlgo_t>(
            results, requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindConvolutionBackwardFilterAlgorithmEx(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnTensorDescriptor_t dyDesc,
    const void *y, const cudnnConvolutionDescriptor_t convDesc, const cudnnFilterDescriptor_t dwDesc, void *dw,
    const int requestedAlgoCount, int *returnedAlgoCount, cudnnConvolutionBwdFilterAlgoPerf_t *perfResults,
    void *workSpace, size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("xDesc", xDesc)
            .arg("x", static_cast<const void *>(x))
            .arg("dyDesc", dyDesc)
            .arg("y", static_cast<const void *>(y))
            .arg("convDesc", convDesc)
            .arg("dwDesc", dwDesc)
            .arg("dw", static_cast<const void *>(dw))
            .arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("workSpace", workSpace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, xDesc, dwDesc, convDesc, dyDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dw);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        librednn::ConvBuffers buffers;
        buffers.x = x;
        buffers.w = dw;
        buffers.y = y;
        buffers.result = dw;
        return librednn::api::write_perf_results<cudnnConvolutionBwdFilterAlgoPerf_t, cudnnConvolutionBwdFilterAlgo_t>(
            librednn::api::find_conv_algorithms(*handle, problem, buffers, workSpace, workSpaceSizeInBytes),
            requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionBackwardFilterWorkspaceSize(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const cudnnTensorDescriptor_t dyDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnFilterDescriptor_t gradDesc,
    cudnnConvolutionBwdFilterAlgo_t algo, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("xDesc", xDesc)
            .arg("dyDesc", dyDesc)
            .arg("convDesc", convDesc)
            .arg("gradDesc", gradDesc)
            .arg("algo", algo)
            .arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, xDesc, gradDesc, convDesc, dyDesc, &problem));
        const librednn::ConvSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::api::conv_solver_for(*handle, problem, static_cast<int>(algo), &solver));
        *sizeInBytes = solver->workspace_bytes(problem);
        return CUDNN_STATUS_SUCCESS;
    });
}
