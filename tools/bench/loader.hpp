// Loading any cuDNN by path (LibreDNN's, NVIDIA's 8.x or 9.x): entry points resolved by name,
// status codes of both numbering schemes named and classified, calls that report instead of crash.
#pragma once

#include "outcome.hpp"

#include <cudnn.h>

#include <memory>
#include <string>
#include <vector>

namespace librednn::bench {

// Every cuDNN function the bench calls. The types come from LibreDNN's headers (cuDNN 8.9's ABI): these
// legacy functions kept their signatures in cuDNN 9, and the enum values the bench passes (data types,
// formats, algorithms, modes) kept their values; only the status codes were renumbered. The RNN calls are
// the v8 API's, which cuDNN 9 keeps (it removed the older RNN API: cudnnRNNForwardTraining and the rest).
#define LIBREDNN_BENCH_CUDNN_FUNCTIONS(X)                 \
    X(cudnnGetVersion)                                    \
    X(cudnnSetCallback)                                   \
    X(cudnnCreate)                                        \
    X(cudnnDestroy)                                       \
    X(cudnnCreateTensorDescriptor)                        \
    X(cudnnSetTensor4dDescriptor)                         \
    X(cudnnDestroyTensorDescriptor)                       \
    X(cudnnCreateFilterDescriptor)                        \
    X(cudnnSetFilter4dDescriptor)                         \
    X(cudnnSetFilterNdDescriptor)                         \
    X(cudnnDestroyFilterDescriptor)                       \
    X(cudnnCreateConvolutionDescriptor)                   \
    X(cudnnSetConvolution2dDescriptor)                    \
    X(cudnnSetConvolutionNdDescriptor)                    \
    X(cudnnSetConvolutionGroupCount)                      \
    X(cudnnSetConvolutionMathType)                        \
    X(cudnnDestroyConvolutionDescriptor)                  \
    X(cudnnGetConvolutionForwardAlgorithmMaxCount)        \
    X(cudnnGetConvolutionForwardAlgorithm_v7)             \
    X(cudnnFindConvolutionForwardAlgorithmEx)             \
    X(cudnnGetConvolutionForwardWorkspaceSize)            \
    X(cudnnConvolutionForward)                            \
    X(cudnnConvolutionBiasActivationForward)              \
    X(cudnnGetConvolutionBackwardDataAlgorithmMaxCount)   \
    X(cudnnGetConvolutionBackwardDataAlgorithm_v7)        \
    X(cudnnFindConvolutionBackwardDataAlgorithmEx)        \
    X(cudnnGetConvolutionBackwardDataWorkspaceSize)       \
    X(cudnnConvolutionBackwardData)                       \
    X(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount) \
    X(cudnnGetConvolutionBackwardFilterAlgorithm_v7)      \
    X(cudnnFindConvolutionBackwardFilterAlgorithmEx)      \
    X(cudnnGetConvolutionBackwardFilterWorkspaceSize)     \
    X(cudnnConvolutionBackwardFilter)                     \
    X(cudnnDeriveBNTensorDescriptor)                      \
    X(cudnnBatchNormalizationForwardInference)            \
    X(cudnnBatchNormalizationForwardTraining)             \
    X(cudnnBatchNormalizationBackward)                    \
    X(cudnnCreateActivationDescriptor)                    \
    X(cudnnSetActivationDescriptor)                       \
    X(cudnnSetActivationDescriptorSwishBeta)              \
    X(cudnnDestroyActivationDescriptor)                   \
    X(cudnnActivationForward)                             \
    X(cudnnActivationBackward)                            \
    X(cudnnSoftmaxForward)                                \
    X(cudnnSoftmaxBackward)                               \
    X(cudnnCreatePoolingDescriptor)                       \
    X(cudnnSetPooling2dDescriptor)                        \
    X(cudnnDestroyPoolingDescriptor)                      \
    X(cudnnPoolingForward)                                \
    X(cudnnPoolingBackward)                               \
    X(cudnnCreateLRNDescriptor)                           \
    X(cudnnSetLRNDescriptor)                              \
    X(cudnnDestroyLRNDescriptor)                          \
    X(cudnnLRNCrossChannelForward)                        \
    X(cudnnLRNCrossChannelBackward)                       \
    X(cudnnDivisiveNormalizationForward)                  \
    X(cudnnDivisiveNormalizationBackward)                 \
    X(cudnnCreateSpatialTransformerDescriptor)            \
    X(cudnnSetSpatialTransformerNdDescriptor)             \
    X(cudnnDestroySpatialTransformerDescriptor)           \
    X(cudnnSpatialTfGridGeneratorForward)                 \
    X(cudnnSpatialTfGridGeneratorBackward)                \
    X(cudnnSpatialTfSamplerForward)                       \
    X(cudnnSpatialTfSamplerBackward)                      \
    X(cudnnCreateCTCLossDescriptor)                       \
    X(cudnnSetCTCLossDescriptorEx)                        \
    X(cudnnDestroyCTCLossDescriptor)                      \
    X(cudnnGetCTCLossWorkspaceSize)                       \
    X(cudnnCTCLoss)                                       \
    X(cudnnCreateOpTensorDescriptor)                      \
    X(cudnnSetOpTensorDescriptor)                         \
    X(cudnnDestroyOpTensorDescriptor)                     \
    X(cudnnOpTensor)                                      \
    X(cudnnAddTensor)                                     \
    X(cudnnTransformTensor)                               \
    X(cudnnCreateTensorTransformDescriptor)               \
    X(cudnnSetTensorTransformDescriptor)                  \
    X(cudnnDestroyTensorTransformDescriptor)              \
    X(cudnnTransformTensorEx)                             \
    X(cudnnSetTensor)                                     \
    X(cudnnScaleTensor)                                   \
    X(cudnnCreateReduceTensorDescriptor)                  \
    X(cudnnSetReduceTensorDescriptor)                     \
    X(cudnnDestroyReduceTensorDescriptor)                 \
    X(cudnnGetReductionIndicesSize)                       \
    X(cudnnGetReductionWorkspaceSize)                     \
    X(cudnnReduceTensor)                                  \
    X(cudnnSetTensorNdDescriptor)                         \
    X(cudnnSetTensorNdDescriptorEx)                       \
    X(cudnnCreateDropoutDescriptor)                       \
    X(cudnnDestroyDropoutDescriptor)                      \
    X(cudnnDropoutGetStatesSize)                          \
    X(cudnnSetDropoutDescriptor)                          \
    X(cudnnCreateRNNDescriptor)                           \
    X(cudnnDestroyRNNDescriptor)                          \
    X(cudnnSetRNNDescriptor_v8)                           \
    X(cudnnRNNSetClip_v8)                                 \
    X(cudnnBuildRNNDynamic)                               \
    X(cudnnCreateRNNDataDescriptor)                       \
    X(cudnnDestroyRNNDataDescriptor)                      \
    X(cudnnSetRNNDataDescriptor)                          \
    X(cudnnGetRNNWeightSpaceSize)                         \
    X(cudnnGetRNNTempSpaceSizes)                          \
    X(cudnnRNNForward)                                    \
    X(cudnnRNNBackwardData_v8)                            \
    X(cudnnRNNBackwardWeights_v8)

// The loaded library's entry points; a function the library lacks stays null.
struct CudnnApi {
#define LIBREDNN_BENCH_DECLARE_POINTER(name) decltype(&::name) name = nullptr;
    LIBREDNN_BENCH_CUDNN_FUNCTIONS(LIBREDNN_BENCH_DECLARE_POINTER)
#undef LIBREDNN_BENCH_DECLARE_POINTER
};

// How a status code reads: cuDNN 8 numbers them 0..14, cuDNN 9 groups them by thousands (1000s not
// initialised, 2000s bad parameter, 3000s not supported, 4000s internal error, 5000s execution failed).
enum class StatusClass { success, not_supported, bad_param, other };

// "CUDNN_STATUS_NOT_SUPPORTED" and so on, for a library of cuDNN major version 8 (and LibreDNN) or 9.
std::string status_name(int status, int major_version);
StatusClass status_class(int status, int major_version);

// The cuDNN major version a cudnnGetVersion() value belongs to: 8907 -> 8, 91900 -> 9.
int major_of_version(long version);

class Library {
public:
    // dlopen()s `path` (a file name is looked up on the loader's search path) and resolves every entry
    // point by name. Fails only when the file cannot be loaded or is not a cuDNN (no cudnnGetVersion).
    static std::unique_ptr<Library> open(const std::string &path, std::string *error);
    ~Library();
    Library(const Library &) = delete;
    Library &operator=(const Library &) = delete;

    const CudnnApi &api() const { return api_; }
    const std::string &path() const { return path_; }  // as given
    const std::string &file() const { return file_; }  // the file the loader picked
    long version() const { return version_; }          // cudnnGetVersion()
    int major_version() const { return major_of_version(version_); }
    bool is_librednn() const { return is_librednn_; }
    std::string describe() const;  // "NVIDIA cuDNN 9.19.0 (/path/libcudnn.so.9)"

    // Loads every sub-library now (through cudnn*VersionCheck), so that two cuDNN 8 builds in one
    // process each bind their own sub-libraries; returns one warning per check that failed.
    std::vector<std::string> load_sub_libraries() const;

    // Reports `status` returned by `function`: ok, unsupported (NOT_SUPPORTED family) or failed, with
    // the status name and, for LibreDNN, the reason it logged.
    Outcome outcome_of(const char *function, int status) const;
    static Outcome missing(const char *function) {
        return Outcome::unsupported(std::string("not provided by this library: it has no ") + function);
    }

    template <class Function, class... Args>
    Outcome call(const char *name, Function function, Args... args) const {
        if (function == nullptr) return missing(name);
        last_error_.clear();
        return outcome_of(name, static_cast<int>(function(args...)));
    }

private:
    Library() = default;
    static void receive_log(cudnnSeverity_t severity, void *self, const cudnnDebug_t *, const char *message);

    void *handle_ = nullptr;
    CudnnApi api_;
    std::string path_, file_;
    long version_ = 0;
    bool is_librednn_ = false;
    mutable std::string last_error_;  // the last error LibreDNN logged through our callback
};

}  // namespace librednn::bench

// Calls a cuDNN function through a loaded library: BENCH_CALL(library, cudnnCreate, &handle) -> Outcome.
#define BENCH_CALL(library, function, ...) (library).call(#function, (library).api().function, __VA_ARGS__)
