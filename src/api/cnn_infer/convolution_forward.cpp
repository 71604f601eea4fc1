// cudnnConvolutionForward (y = alpha * conv(x, w) + beta * y) and cudnnConvolutionBiasActivationForward
// (y = act(alpha1 * conv(x, w) + alpha2 * z + bias)), each with the algorithm the caller names.
#include "api/convolution_problem.hpp"
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnConvolutionForward(cudnnHandle_t handle, const void *alpha,
                                                  const cudnnTensorDescriptor_t xDesc, const void *x,
                                                  const cudnnFilterDescriptor_t wDesc, const void *w,
                                                  const cudnnConvolutionDescriptor_t convDesc,
                                                  cudnnConvolutionFwdAlgo_t algo, void *workSpace,
                                                  size_t workSpaceSizeInBytes, const void *beta,
                                                  const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x).arg("wDesc", wDesc).arg("w", w);
        call.arg("convDesc", convDesc).arg("algo", algo).arg("workSpace", workSpace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(librednn::ConvDirection::forward, xDesc, wDesc, convDesc,
                                                             yDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        const bool in_double = librednn::api::conv_scaling_in_double(problem);
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::ConvBuffers buffers;
        buffers.x = x;
        buffers.w = w;
        buffers.result = y;
        return librednn::api::run_convolution(*handle, problem, static_cast<int>(algo), buffers, workSpace,
                                              workSpaceSizeInBytes);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnConvolutionBiasActivationForward(
    cudnnHandle_t handle, const void *alpha1, const cudnnTensorDescriptor_t xDesc, const void *x,
    const cudnnFilterDescriptor_t wDesc, const void *w, const cudnnConvolutionDescriptor_t convDesc,
    cudnnConvolutionFwdAlgo_t algo, void *workSpace, size_t workSpaceSizeInBytes, const void *alpha2,
    const cudnnTensorDescriptor_t zDesc, const void *z, const cudnnTensorDescriptor_t biasDesc, const void *bias,
    const cudnnActivationDescriptor_t activationDesc, const cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("alpha1", alpha1).arg("xDesc", xDesc).arg("x", x).arg("wDesc", wDesc).arg("w", w);
        call.arg("convDesc", convDesc).arg("algo", algo).arg("workSpace", workSpace);
        call.arg("workSpaceSizeInBytes", workSpaceSizeInBytes).arg("alpha2", alpha2).arg("zDesc", zDesc).arg("z", z);
        call.arg("biasDesc", biasDesc).arg("bias", bias).arg("activationDesc", activationDesc);
        call.arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::ConvProblem problem;
        LIBREDNN_CHECK(librednn::api::convolution_problem_of(librednn::ConvDirection::forward, xDesc, wDesc, convDesc,
                                                             yDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha1);
        LIBREDNN_REQUIRE_NOT_NULL(alpha2);
        const bool in_double = librednn::api::conv_scaling_in_double(problem);
        LIBREDNN_CHECK(librednn::api::add_bias_activation(zDesc, biasDesc, activationDesc,
                                                          librednn::read_scaling_factor(alpha2, in_double), &problem));
        if (problem.epilogue.activation == CUDNN_ACTIVATION_IDENTITY &&
            algo != CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                  "CUDNN_ACTIVATION_IDENTITY is fused only with "
                                  "CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM (cuDNN's rule); use RELU or that "
                                  "algorithm");
        }
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(w);
        LIBREDNN_REQUIRE_NOT_NULL(bias);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        if (problem.epilogue.alpha2 != 0.0) LIBREDNN_REQUIRE_NOT_NULL(z);
        problem.alpha = librednn::read_scaling_factor(alpha1, in_double);
        librednn::ConvBuffers buffers;
        buffers.x = x;
        buffers.w = w;
        buffers.z = z;
        buffers.bias = bias;
        buffers.result = y;
        return librednn::api::run_convolution(*handle, problem, static_cast<int>(algo), buffers, workSpace,
                                              workSpaceSizeInBytes);
    });
}
