// The algorithm queries of cudnnConvolutionForward: cudnnGetConvolutionForwardAlgorithmMaxCount,
// ..._v7 (ranked by the registry, nothing run), cudnnFindConvolutionForwardAlgorithm[Ex] (every applicable
// algorithm timed) and cudnnGetConvolutionForwardWorkspaceSize.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"

using librednn::Status;
using librednn::api::Call;

namespace {

constexpr librednn::ConvDirection kDirection = librednn::ConvDirection::forward;

Status check_requested(int requested, int *returned, const void *perf) {
    LIBREDNN_REQUIRE_NOT_NULL(returned);
    LIBREDNN_REQUIRE_NOT_NULL(perf);
    if (requested < 1)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "requestedAlgoCount is %d, must be at least 1", requested);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionForwardAlgorithmMaxCount(cudnnHandle_t handle, int *count) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("count", static_cast<const void *>(count));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(count);
        *count = CUDNN_CONVOLUTION_FWD_ALGO_COUNT;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionForwardAlgorithm_v7(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t srcDesc, const cudnnFilterDescriptor_t filterDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t destDesc, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionFwdAlgoPerf_t *perfResults) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("srcDesc", srcDesc)
            .arg("filterDesc", filterDesc)
            .arg("convDesc", convDesc)
            .arg("destDesc", destDesc)
            .arg("requestedAlgoCount", requestedAlgoCount);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(
            librednn::api::convolution_problem_of(kDirection, srcDesc, filterDesc, convDesc, destDesc, &problem));
        return librednn::api::write_perf_results<cudnnConvolutionFwdAlgoPerf_t, cudnnConvolutionFwdAlgo_t>(
            librednn::api::rank_conv_algorithms(*handle, problem), requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindConvolutionForwardAlgorithm(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const cudnnFilterDescriptor_t wDesc,
    const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t yDesc, const int requestedAlgoCount,
    int *returnedAlgoCount, cudnnConvolutionFwdAlgoPerf_t *perfResults) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("xDesc", xDesc)
            .arg("wDesc", wDesc)
            .arg("convDesc", convDesc)
            .arg("yDesc", yDesc)
            .arg("requestedAlgoCount", requestedAlgoCount);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, xDesc, wDesc, convDesc, yDesc, &problem));
        std::vector<librednn::api::ConvAlgorithmResult> results;
        LIBREDNN_CHECK(librednn::api::find_conv_algorithms_allocating(*handle, problem, &results));
        return librednn::api::write_perf_results<cudnnConvolutionFwdAlgoPerf_t, cudnnConvolutionFwdAlgo_t>(
            results, requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnFindConvolutionForwardAlgorithmEx(
    cudnnHandle_t handle, const cudnnTensorDescriptor_t xDesc, const void *x, const cudnnFilterDescriptor_t wDesc,
    const void *w, const cudnnConvolutionDescriptor_t convDesc, const cudnnTensorDescriptor_t yDesc, void *y,
    const int requestedAlgoCount, int *returnedAlgoCount, cudnnConvolutionFwdAlgoPerf_t *perfResults, void *workSpace,
    size_t workSpaceSizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("xDesc", xDesc)
            .arg("x", static_cast<const void *>(x))
            .arg("wDesc", wDesc)
            .arg("w", static_cast<const void *>(w))
            .arg("convDesc", convDesc)
            .arg("yDesc", yDesc)
            .arg("y", static_cast<const void *>(y))
            .arg("requestedAlgoCount", requestedAlgoCount);
        call.arg("workSpace", workSpace).arg("workSpaceSizeInBytes", workSpaceSizeInBytes);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_CHECK(check_requested(requestedAlgoCount, returnedAlgoCount, perfResults));
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, xDesc, wDesc, convDesc, yDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        librednn::ConvBuffers buffers;
        buffers.x = x;
        buffers.w = w;
        buffers.y = y;
        buffers.result = y;
        return librednn::api::write_perf_results<cudnnConvolutionFwdAlgoPerf_t, cudnnConvolutionFwdAlgo_t>(
            librednn::api::find_conv_algorithms(*handle, problem, buffers, workSpace, workSpaceSizeInBytes),
            requestedAlgoCount, returnedAlgoCount, perfResults);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetConvolutionForwardWorkspaceSize(cudnnHandle_t handle,
                                                                  const cudnnTensorDescriptor_t xDesc,
                                                                  const cudnnFilterDescriptor_t wDesc,
                                                                  const cudnnConvolutionDescriptor_t convDesc,
                                                                  const cudnnTensorDescriptor_t yDesc,
                                                                  cudnnConvolutionFwdAlgo_t algo, size_t *sizeInBytes) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle)
            .arg("xDesc", xDesc)
            .arg("wDesc", wDesc)
            .arg("convDesc", convDesc)
            .arg("yDesc", yDesc)
            .arg("algo", algo)
            .arg("sizeInBytes", static_cast<const void *>(sizeInBytes));
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        LIBREDNN_REQUIRE_NOT_NULL(sizeInBytes);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(kDirection, xDesc, wDesc, convDesc, yDesc, &problem));
        const librednn::ConvSolver *solver = nullptr;
        LIBREDNN_CHECK(librednn::api::conv_solver_for(*handle, problem, static_cast<int>(algo), &solver));
        *sizeInBytes = librednn::api::conv_workspace_bytes(*handle, problem, *solver);
        return CUDNN_STATUS_SUCCESS;
    });
}
