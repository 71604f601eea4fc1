// cudnnConvolutionBackwardData: dx = alpha * (the adjoint of the forward in x, applied to dy) + beta * dx.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBackwardData(cudnnHandle_t handle, const void *alpha,
                                                       const cudnnFilterDescriptor_t wDesc, const void *w,
                                                       const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                                       const cudnnConvolutionDescriptor_t convDesc,
                                                       cudnnConvolutionBwdDataAlgo_t algo, void *workSpace,
                                                       size_t workSpaceSizeInBytes, const void *beta,
                                                       const cudnnTensorDescriptor_t dxDesc, void *dx) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha", alpha).arg("wDesc", wDesc).arg("w", w).arg("dyDesc", dyDesc).arg("dy", dy);
        call.arg("convDesc", convDesc).arg("algo", algo).arg("workSpace", workSpace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("beta", beta).arg("dxDesc", dxDesc).arg("dx", dx);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(librednn::ConvDirection::backward_data, dxDesc, wDesc,
                                                             convDesc, dyDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        const bool in_double = librednn::api::conv_scaling_in_double(problem);
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::ConvBuffers buffers;
        buffers.w = w;
        buffers.y = dy;
        buffers.result = dx;
        return librednn::api::run_convolution(*handle, problem, static_cast<int>(algo), buffers, workSpace,
                                              workSpaceSizeInBytes);
    });
}
