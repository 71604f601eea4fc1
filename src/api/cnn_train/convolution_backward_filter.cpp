// cudnnConvolutionBackwardFilter: dw = alpha * (the gradient of <conv(x, w), dy> in w) + beta * dw.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBackwardFilter(cudnnHandle_t handle, const void *alpha,
                                                         const cudnnTensorDescriptor_t xDesc, const void *x,
                                                         const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                                         const cudnnConvolutionDescriptor_t convDesc,
                                                         cudnnConvolutionBwdFilterAlgo_t algo, void *workSpace,
                                                         size_t workSpaceSizeInBytes, const void *beta,
                                                         const cudnnFilterDescriptor_t dwDesc, void *dw) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x).arg("dyDesc", dyDesc).arg("dy", dy);
        call.arg("convDesc", convDesc).arg("algo", algo).arg("workSpace", workSpace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("beta", beta).arg("dwDesc", dwDesc).arg("dw", dw);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(librednn::ConvDirection::backward_filter, xDesc, dwDesc,
                                                             convDesc, dyDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dw);
        const bool in_double = librednn::api::conv_scaling_in_double(problem);
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::ConvBuffers buffers;
        buffers.x = x;
        buffers.y = dy;
        buffers.result = dw;
        return librednn::api::run_convolution(*handle, problem, static_cast<int>(algo), buffers, workSpace,
                                              workSpaceSizeInBytes);
    });
}
