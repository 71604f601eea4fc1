// The fused-ops objects of cudnn_cnn_train.h: the constant parameter pack (descriptors, pointer
// placeholders, batch-norm mode), the variant parameter pack (device pointers and host scalars) and the plan.
#pragma once

#include "core/status.hpp"
#include "descriptors/activation.hpp"
#include "descriptors/convolution.hpp"
#include "descriptors/filter.hpp"
#include "descriptors/tensor.hpp"
#include "ops/fused_ops/solvers.hpp"

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace librednn {

// What the `param` of cudnnSet/GetFusedOpsConstParamPackAttribute is for a label, as cuDNN documents:
// a descriptor handle (Set: an initialised one, copied in; Get: a created one, copied into), or a
// pointer to a cudnnFusedOpsPointerPlaceHolder_t or to a cudnnBatchNormMode_t.
enum class ConstParamKind {
    tensor_descriptor,
    filter_descriptor,
    convolution_descriptor,
    activation_descriptor,
    pointer_placeholder,
    batch_norm_mode,
};

// The kind of a label cudnnFusedOpsConstParamLabel_t defines (check with enum_name first).
ConstParamKind const_param_kind(cudnnFusedOpsConstParamLabel_t label);

// Variant pack labels: CUDNN_PTR_XDATA..CUDNN_PTR_BN_DBIAS are device pointers.
constexpr int kFusedOpsVariantPointerCount = CUDNN_PTR_BN_DBIAS + 1;

// One variant-pack pointer a made plan reads or writes, with the promise its placeholder made about it.
struct FusedOpsPointer {
    cudnnFusedOpsVariantParamLabel_t label = CUDNN_PTR_XDATA;
    cudnnFusedOpsPointerPlaceHolder_t placeholder = CUDNN_PTR_ELEM_ALIGNED;
    size_t element_bytes = 1;  // the alignment CUDNN_PTR_ELEM_ALIGNED promises
};

}  // namespace librednn

struct cudnnFusedOpsConstParamStruct {
    cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    // Copies of the descriptors set, by label; a label absent here reads back with *isNULL = 1.
    std::map<cudnnFusedOpsConstParamLabel_t, cudnnTensorStruct> tensors;
    std::map<cudnnFusedOpsConstParamLabel_t, cudnnFilterStruct> filters;
    std::optional<cudnnConvolutionStruct> convolution;
    std::optional<cudnnActivationStruct> activation;
    // Placeholders never set are CUDNN_PTR_NULL (the pointer is not used).
    std::map<cudnnFusedOpsConstParamLabel_t, cudnnFusedOpsPointerPlaceHolder_t> placeholders;
    cudnnBatchNormMode_t batch_norm_mode = CUDNN_BATCHNORM_PER_ACTIVATION;
};

struct cudnnFusedOpsVariantParamStruct {
    cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    // Device pointers, indexed by CUDNN_PTR_* label.
    void *pointers[librednn::kFusedOpsVariantPointerCount] = {};
    // Host scalars, one per CUDNN_SCALAR_* label.
    size_t workspace_size_in_bytes = 0;
    int64_t bn_accumulation_count = 0;
    double bn_exp_avg_factor = 0.0;
    double bn_epsilon = 0.0;
};

struct cudnnFusedOpsPlanStruct {
    cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    bool is_made = false;                // true once cudnnMakeFusedOpsPlan has succeeded
    size_t workspace_size_in_bytes = 0;  // what cudnnMakeFusedOpsPlan reported
    // What cudnnMakeFusedOpsPlan validated and chose; later changes to the constant pack do not reach it.
    librednn::FusedOpsProblem problem;
    const librednn::FusedOpsSolver *solver = nullptr;  // this library's own (plans are made and run here)
    std::vector<librednn::FusedOpsPointer> pointers;   // the variant-pack pointers execution uses
};

namespace librednn {

// CUDNN_STATUS_BAD_PARAM naming `name` when `ops` is not a cudnnFusedOps_t value.
Status check_fused_ops(cudnnFusedOps_t ops, const char *name);

// "CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD", or "?" for other values.
const char *fused_ops_name(cudnnFusedOps_t ops);

}  // namespace librednn
