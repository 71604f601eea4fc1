// The cuDNN functions the self-test calls, looked up with dlsym in a library opened by path (in a child
// process), typed from LibreDNN's cudnn.h (the cuDNN 8.9 ABI; the functions used have the same
// signatures in cuDNN 9), plus the reading of status codes across cuDNN 8 and 9.
#pragma once

#include <cudnn.h>

#include <string>

namespace librednn::doctor {

struct CudnnApi {
    void *library = nullptr;
    int major = 0;  // from cudnnGetVersion: statuses are numbered differently from cuDNN 9 on

#define LIBREDNN_DOCTOR_FUNCTION(name) decltype(&::name) name = nullptr;
#define LIBREDNN_DOCTOR_FUNCTIONS(X)                  \
    X(cudnnGetVersion)                                \
    X(cudnnGetErrorString)                            \
    X(cudnnCreate)                                    \
    X(cudnnDestroy)                                   \
    X(cudnnCreateTensorDescriptor)                    \
    X(cudnnSetTensor4dDescriptor)                     \
    X(cudnnDestroyTensorDescriptor)                   \
    X(cudnnCreateFilterDescriptor)                    \
    X(cudnnSetFilter4dDescriptor)                     \
    X(cudnnDestroyFilterDescriptor)                   \
    X(cudnnCreateConvolutionDescriptor)               \
    X(cudnnSetConvolution2dDescriptor)                \
    X(cudnnSetConvolutionMathType)                    \
    X(cudnnDestroyConvolutionDescriptor)              \
    X(cudnnGetConvolutionForwardAlgorithm_v7)         \
    X(cudnnGetConvolutionForwardWorkspaceSize)        \
    X(cudnnConvolutionForward)                        \
    X(cudnnGetConvolutionBackwardDataAlgorithm_v7)    \
    X(cudnnGetConvolutionBackwardDataWorkspaceSize)   \
    X(cudnnConvolutionBackwardData)                   \
    X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)  \
    X(cudnnGetConvolutionBackwardFilterWorkspaceSize) \
    X(cudnnConvolutionBackwardFilter)                 \
    X(cudnnCreatePoolingDescriptor)                   \
    X(cudnnSetPooling2dDescriptor)                    \
    X(cudnnDestroyPoolingDescriptor)                  \
    X(cudnnPoolingForward)                            \
    X(cudnnSoftmaxForward)                            \
    X(cudnnBatchNormalizationForwardInference)        \
    X(cudnnCreateActivationDescriptor)                \
    X(cudnnSetActivationDescriptor)                   \
    X(cudnnDestroyActivationDescriptor)               \
    X(cudnnActivationForward)                         \
    X(cudnnActivationBackward)                        \
    X(cudnnSetTensorNdDescriptor)                     \
    X(cudnnCreateDropoutDescriptor)                   \
    X(cudnnSetDropoutDescriptor)                      \
    X(cudnnDestroyDropoutDescriptor)                  \
    X(cudnnCreateRNNDescriptor)                       \
    X(cudnnSetRNNDescriptor_v8)                       \
    X(cudnnDestroyRNNDescriptor)                      \
    X(cudnnCreateRNNDataDescriptor)                   \
    X(cudnnSetRNNDataDescriptor)                      \
    X(cudnnDestroyRNNDataDescriptor)                  \
    X(cudnnGetRNNWeightSpaceSize)                     \
    X(cudnnGetRNNTempSpaceSizes)                      \
    X(cudnnGetRNNWeightParams)                        \
    X(cudnnRNNForward)                                \
    X(cudnnRNNBackwardData_v8)                        \
    X(cudnnRNNBackwardWeights_v8)
    LIBREDNN_DOCTOR_FUNCTIONS(LIBREDNN_DOCTOR_FUNCTION)
#undef LIBREDNN_DOCTOR_FUNCTION

    // dlopen()s `path` and looks every function up; a missing one stays nullptr (the check that needs
    // it says so). False with *error only when the library does not load or lacks cudnnGetVersion.
    bool open(const std::string &path, std::string *error);

    // cuDNN 8: CUDNN_STATUS_NOT_SUPPORTED is 9; cuDNN 9: the 3000 family (NOT_SUPPORTED and its
    // sub-codes).
    bool not_supported(cudnnStatus_t status) const;
    // "CUDNN_STATUS_NOT_SUPPORTED (9)", from the library's own cudnnGetErrorString.
    std::string describe(cudnnStatus_t status) const;
};

}  // namespace librednn::doctor
