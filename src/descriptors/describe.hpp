// One-line descriptions of every descriptor, for API traces ("TensorDescriptor{float, 2x3x4x5, ...}").
// Each family defines its describe() beside its validation rules (src/descriptors/<family>.cpp).
#pragma once

#include <cudnn.h>

#include <string>
#include <type_traits>

namespace librednn::api {

template <class T>
struct has_describe : std::false_type {};

#define LIBREDNN_DESCRIBABLE(Struct)          \
    std::string describe(const Struct *desc); \
    template <>                               \
    struct has_describe<Struct> : std::true_type {};

LIBREDNN_DESCRIBABLE(cudnnTensorStruct)
LIBREDNN_DESCRIBABLE(cudnnFilterStruct)
LIBREDNN_DESCRIBABLE(cudnnTensorTransformStruct)
LIBREDNN_DESCRIBABLE(cudnnOpTensorStruct)
LIBREDNN_DESCRIBABLE(cudnnReduceTensorStruct)
LIBREDNN_DESCRIBABLE(cudnnPoolingStruct)
LIBREDNN_DESCRIBABLE(cudnnActivationStruct)
LIBREDNN_DESCRIBABLE(cudnnLRNStruct)
LIBREDNN_DESCRIBABLE(cudnnSpatialTransformerStruct)
LIBREDNN_DESCRIBABLE(cudnnDropoutStruct)
LIBREDNN_DESCRIBABLE(cudnnAlgorithmStruct)
LIBREDNN_DESCRIBABLE(cudnnAlgorithmPerformanceStruct)
LIBREDNN_DESCRIBABLE(cudnnConvolutionStruct)
LIBREDNN_DESCRIBABLE(cudnnFusedOpsConstParamStruct)
LIBREDNN_DESCRIBABLE(cudnnFusedOpsVariantParamStruct)
LIBREDNN_DESCRIBABLE(cudnnFusedOpsPlanStruct)
LIBREDNN_DESCRIBABLE(cudnnRNNStruct)
LIBREDNN_DESCRIBABLE(cudnnPersistentRNNPlan)
LIBREDNN_DESCRIBABLE(cudnnRNNDataStruct)
LIBREDNN_DESCRIBABLE(cudnnSeqDataStruct)
LIBREDNN_DESCRIBABLE(cudnnAttnStruct)
LIBREDNN_DESCRIBABLE(cudnnCTCLossStruct)

#undef LIBREDNN_DESCRIBABLE

}  // namespace librednn::api
