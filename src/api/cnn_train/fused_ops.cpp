// Fused-ops constant and variant parameter packs (create/destroy/set/get) and plan create/destroy.
// cudnnMakeFusedOpsPlan and cudnnFusedOpsExecute are elsewhere.
#include "descriptors/fused_ops.hpp"
#include "api/entry.hpp"

#include <cstring>

using librednn::ConstParamKind;
using librednn::Status;
using librednn::api::Call;

namespace {

const char *const_label_name(cudnnFusedOpsConstParamLabel_t label) {
    const char *name = librednn::enum_name(label);
    return name ? name : "?";
}

Status check_const_label(cudnnFusedOpsConstParamLabel_t label) {
    if (librednn::enum_name(label) == nullptr)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "paramLabel is %d, not a cudnnFusedOpsConstParamLabel_t (CUDNN_PARAM_XDESC (0) to "
                              "CUDNN_PARAM_BN_DBIAS_PLACEHOLDER (38))",
                              static_cast<int>(label));
    return CUDNN_STATUS_SUCCESS;
}

// Traces `param` as what the label says it is: a descriptor, or the value a pointer points to.
void trace_const_param(Call &call, cudnnFusedOpsConstParamLabel_t label, const void *param) {
    if (librednn::enum_name(label) == nullptr || param == nullptr) {
        call.arg("param", param);
        return;
    }
    switch (librednn::const_param_kind(label)) {
        case ConstParamKind::tensor_descriptor: call.arg("param", static_cast<const cudnnTensorStruct *>(param)); break;
        case ConstParamKind::filter_descriptor: call.arg("param", static_cast<const cudnnFilterStruct *>(param)); break;
        case ConstParamKind::convolution_descriptor:
            call.arg("param", static_cast<const cudnnConvolutionStruct *>(param));
            break;
        case ConstParamKind::activation_descriptor:
            call.arg("param", static_cast<const cudnnActivationStruct *>(param));
            break;
        case ConstParamKind::pointer_placeholder:
            call.arg("*param", *static_cast<const cudnnFusedOpsPointerPlaceHolder_t *>(param));
            break;
        case ConstParamKind::batch_norm_mode:
            call.arg("*param", *static_cast<const cudnnBatchNormMode_t *>(param));
            break;
    }
}

Status require_descriptor_set(bool is_set, cudnnFusedOpsConstParamLabel_t label) {
    if (!is_set)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "param (the descriptor for %s) has not been set; pass an initialised descriptor or "
                              "NULL",
                              const_label_name(label));
    return CUDNN_STATUS_SUCCESS;
}

// A descriptor label that holds no descriptor: *isNULL = 1, param untouched.
Status report_null(int *isNULL) {
    *isNULL = 1;
    return CUDNN_STATUS_SUCCESS;
}

Status require_param(const void *param, cudnnFusedOpsConstParamLabel_t label, const char *type) {
    if (param == nullptr)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM, "param is NULL; %s takes a pointer to a %s",
                              const_label_name(label), type);
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnCreateFusedOpsConstParamPack(cudnnFusedOpsConstParamPack_t *constPack,
                                                            cudnnFusedOps_t ops) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("constPack", static_cast<const void *>(constPack)).arg("ops", ops);
        LIBREDNN_REQUIRE_NOT_NULL(constPack);
        LIBREDNN_CHECK(librednn::check_fused_ops(ops, "ops"));
        auto *pack = new cudnnFusedOpsConstParamStruct();
        pack->ops = ops;
        *constPack = pack;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyFusedOpsConstParamPack(cudnnFusedOpsConstParamPack_t constPack) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("constPack", constPack);
        delete constPack;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSetFusedOpsConstParamPackAttribute(cudnnFusedOpsConstParamPack_t constPack,
                                                                  cudnnFusedOpsConstParamLabel_t paramLabel,
                                                                  const void *param) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("constPack", constPack).arg("paramLabel", paramLabel);
        trace_const_param(call, paramLabel, param);
        LIBREDNN_REQUIRE_NOT_NULL(constPack);
        LIBREDNN_CHECK(check_const_label(paramLabel));
        switch (librednn::const_param_kind(paramLabel)) {
            case ConstParamKind::tensor_descriptor: {
                // A NULL descriptor clears the label; a set one is copied, so the caller may destroy theirs.
                const auto *tensor = static_cast<const cudnnTensorStruct *>(param);
                if (tensor == nullptr) {
                    constPack->tensors.erase(paramLabel);
                    return CUDNN_STATUS_SUCCESS;
                }
                LIBREDNN_CHECK(require_descriptor_set(tensor->is_set, paramLabel));
                constPack->tensors.insert_or_assign(paramLabel, *tensor);
                return CUDNN_STATUS_SUCCESS;
            }
            case ConstParamKind::filter_descriptor: {
                const auto *filter = static_cast<const cudnnFilterStruct *>(param);
                if (filter == nullptr) {
                    constPack->filters.erase(paramLabel);
                    return CUDNN_STATUS_SUCCESS;
                }
                LIBREDNN_CHECK(require_descriptor_set(filter->is_set, paramLabel));
                constPack->filters.insert_or_assign(paramLabel, *filter);
                return CUDNN_STATUS_SUCCESS;
            }
            case ConstParamKind::convolution_descriptor: {
                const auto *conv = static_cast<const cudnnConvolutionStruct *>(param);
                if (conv == nullptr) {
                    constPack->convolution.reset();
                    return CUDNN_STATUS_SUCCESS;
                }
                LIBREDNN_CHECK(require_descriptor_set(conv->is_set, paramLabel));
                constPack->convolution = *conv;
                return CUDNN_STATUS_SUCCESS;
            }
            case ConstParamKind::activation_descriptor: {
                const auto *activation = static_cast<const cudnnActivationStruct *>(param);
                if (activation == nullptr) {
                    constPack->activation.reset();
                    return CUDNN_STATUS_SUCCESS;
                }
                LIBREDNN_CHECK(require_descriptor_set(activation->is_set, paramLabel));
                constPack->activation = *activation;
                return CUDNN_STATUS_SUCCESS;
            }
            case ConstParamKind::pointer_placeholder: {
                LIBREDNN_CHECK(require_param(param, paramLabel, "cudnnFusedOpsPointerPlaceHolder_t"));
                const auto placeholder = *static_cast<const cudnnFusedOpsPointerPlaceHolder_t *>(param);
                if (librednn::enum_name(placeholder) == nullptr)
                    return librednn::fail(
                        CUDNN_STATUS_BAD_PARAM,
                        "*param is %d for %s, not a cudnnFusedOpsPointerPlaceHolder_t (CUDNN_PTR_NULL, "
                        "CUDNN_PTR_ELEM_ALIGNED or CUDNN_PTR_16B_ALIGNED)",
                        static_cast<int>(placeholder), const_label_name(paramLabel));
                constPack->placeholders.insert_or_assign(paramLabel, placeholder);
                return CUDNN_STATUS_SUCCESS;
            }
            case ConstParamKind::batch_norm_mode: {
                LIBREDNN_CHECK(require_param(param, paramLabel, "cudnnBatchNormMode_t"));
                const auto mode = *static_cast<const cudnnBatchNormMode_t *>(param);
                if (librednn::enum_name(mode) == nullptr)
                    return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                                          "*param is %d for CUDNN_PARAM_BN_MODE, not a cudnnBatchNormMode_t "
                                          "(CUDNN_BATCHNORM_PER_ACTIVATION, CUDNN_BATCHNORM_SPATIAL or "
                                          "CUDNN_BATCHNORM_SPATIAL_PERSISTENT)",
                                          static_cast<int>(mode));
                constPack->batch_norm_mode = mode;
                return CUDNN_STATUS_SUCCESS;
            }
        }
        return librednn::fail(CUDNN_STATUS_INTERNAL_ERROR, "no rule for %s", const_label_name(paramLabel));
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetFusedOpsConstParamPackAttribute(const cudnnFusedOpsConstParamPack_t constPack,
                                                                  cudnnFusedOpsConstParamLabel_t paramLabel,
                                                                  void *param, int *isNULL) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("constPack", constPack).arg("paramLabel", paramLabel).arg("param", static_cast<const void *>(param));
        call.arg("isNULL", static_cast<const void *>(isNULL));
        LIBREDNN_REQUIRE_NOT_NULL(constPack);
        LIBREDNN_REQUIRE_NOT_NULL(isNULL);
        LIBREDNN_CHECK(check_const_label(paramLabel));
        // A descriptor label never set (or set to NULL) reads back as *isNULL = 1 and leaves param alone.
        switch (librednn::const_param_kind(paramLabel)) {
            case ConstParamKind::tensor_descriptor: {
                const auto found = constPack->tensors.find(paramLabel);
                if (found == constPack->tensors.end()) return report_null(isNULL);
                LIBREDNN_CHECK(require_param(param, paramLabel, "created cudnnTensorDescriptor_t to copy into"));
                *static_cast<cudnnTensorStruct *>(param) = found->second;
                break;
            }
            case ConstParamKind::filter_descriptor: {
                const auto found = constPack->filters.find(paramLabel);
                if (found == constPack->filters.end()) return report_null(isNULL);
                LIBREDNN_CHECK(require_param(param, paramLabel, "created cudnnFilterDescriptor_t to copy into"));
                *static_cast<cudnnFilterStruct *>(param) = found->second;
                break;
            }
            case ConstParamKind::convolution_descriptor: {
                if (!constPack->convolution) return report_null(isNULL);
                LIBREDNN_CHECK(require_param(param, paramLabel, "created cudnnConvolutionDescriptor_t to copy into"));
                *static_cast<cudnnConvolutionStruct *>(param) = *constPack->convolution;
                break;
            }
            case ConstParamKind::activation_descriptor: {
                if (!constPack->activation) return report_null(isNULL);
                LIBREDNN_CHECK(require_param(param, paramLabel, "created cudnnActivationDescriptor_t to copy into"));
                *static_cast<cudnnActivationStruct *>(param) = *constPack->activation;
                break;
            }
            case ConstParamKind::pointer_placeholder: {
                LIBREDNN_CHECK(require_param(param, paramLabel, "cudnnFusedOpsPointerPlaceHolder_t"));
                const auto found = constPack->placeholders.find(paramLabel);
                *static_cast<cudnnFusedOpsPointerPlaceHolder_t *>(param) =
                    found == constPack->placeholders.end() ? CUDNN_PTR_NULL : found->second;
                break;
            }
            case ConstParamKind::batch_norm_mode: {
                LIBREDNN_CHECK(require_param(param, paramLabel, "cudnnBatchNormMode_t"));
                *static_cast<cudnnBatchNormMode_t *>(param) = constPack->batch_norm_mode;
                break;
            }
        }
        *isNULL = 0;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnCreateFusedOpsVariantParamPack(cudnnFusedOpsVariantParamPack_t *varPack,
                                                              cudnnFusedOps_t ops) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("varPack", static_cast<const void *>(varPack)).arg("ops", ops);
        LIBREDNN_REQUIRE_NOT_NULL(varPack);
        LIBREDNN_CHECK(librednn::check_fused_ops(ops, "ops"));
        auto *pack = new cudnnFusedOpsVariantParamStruct();
        pack->ops = ops;
        *varPack = pack;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyFusedOpsVariantParamPack(cudnnFusedOpsVariantParamPack_t varPack) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("varPack", varPack);
        delete varPack;
        return CUDNN_STATUS_SUCCESS;
    });
}

namespace {

bool is_variant_pointer_label(cudnnFusedOpsVariantParamLabel_t label) {
    return label >= CUDNN_PTR_XDATA && label < librednn::kFusedOpsVariantPointerCount;
}

Status check_variant_label(cudnnFusedOpsVariantParamLabel_t label) {
    if (librednn::enum_name(label) == nullptr)
        return librednn::fail(CUDNN_STATUS_BAD_PARAM,
                              "paramLabel is %d, not a cudnnFusedOpsVariantParamLabel_t (CUDNN_PTR_XDATA (0) to "
                              "CUDNN_PTR_BN_DBIAS (23), or CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES (100) to "
                              "CUDNN_SCALAR_DOUBLE_BN_EPSILON (103))",
                              static_cast<int>(label));
    return CUDNN_STATUS_SUCCESS;
}

const char *scalar_type(cudnnFusedOpsVariantParamLabel_t label) {
    switch (label) {
        case CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES: return "size_t";
        case CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT: return "int64_t";
        default: return "double";
    }
}

}  // namespace

cudnnStatus_t CUDNNWINAPI cudnnSetFusedOpsVariantParamPackAttribute(cudnnFusedOpsVariantParamPack_t varPack,
                                                                    cudnnFusedOpsVariantParamLabel_t paramLabel,
                                                                    void *ptr) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("varPack", varPack).arg("paramLabel", paramLabel).arg("ptr", static_cast<const void *>(ptr));
        LIBREDNN_REQUIRE_NOT_NULL(varPack);
        LIBREDNN_CHECK(check_variant_label(paramLabel));
        // Pointer labels take the device pointer itself (NULL included); scalar labels a host pointer to the value.
        if (is_variant_pointer_label(paramLabel)) {
            varPack->pointers[paramLabel] = ptr;
            return CUDNN_STATUS_SUCCESS;
        }
        if (ptr == nullptr)
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "ptr is NULL; %s takes a pointer to a host %s",
                                  librednn::enum_name(paramLabel), scalar_type(paramLabel));
        switch (paramLabel) {
            case CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES:
                std::memcpy(&varPack->workspace_size_in_bytes, ptr, sizeof varPack->workspace_size_in_bytes);
                break;
            case CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT:
                std::memcpy(&varPack->bn_accumulation_count, ptr, sizeof varPack->bn_accumulation_count);
                break;
            case CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR:
                std::memcpy(&varPack->bn_exp_avg_factor, ptr, sizeof varPack->bn_exp_avg_factor);
                break;
            case CUDNN_SCALAR_DOUBLE_BN_EPSILON:
                std::memcpy(&varPack->bn_epsilon, ptr, sizeof varPack->bn_epsilon);
                break;
            default: break;
        }
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnGetFusedOpsVariantParamPackAttribute(const cudnnFusedOpsVariantParamPack_t varPack,
                                                                    cudnnFusedOpsVariantParamLabel_t paramLabel,
                                                                    void *ptr) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("varPack", varPack).arg("paramLabel", paramLabel).arg("ptr", static_cast<const void *>(ptr));
        LIBREDNN_REQUIRE_NOT_NULL(varPack);
        LIBREDNN_CHECK(check_variant_label(paramLabel));
        if (ptr == nullptr) {
            if (is_variant_pointer_label(paramLabel))
                return librednn::fail(CUDNN_STATUS_BAD_PARAM, "ptr is NULL; %s reads into a host void *",
                                      librednn::enum_name(paramLabel));
            return librednn::fail(CUDNN_STATUS_BAD_PARAM, "ptr is NULL; %s reads into a host %s",
                                  librednn::enum_name(paramLabel), scalar_type(paramLabel));
        }
        if (is_variant_pointer_label(paramLabel)) {
            *static_cast<void **>(ptr) = varPack->pointers[paramLabel];
            return CUDNN_STATUS_SUCCESS;
        }
        switch (paramLabel) {
            case CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES:
                *static_cast<size_t *>(ptr) = varPack->workspace_size_in_bytes;
                break;
            case CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT:
                *static_cast<int64_t *>(ptr) = varPack->bn_accumulation_count;
                break;
            case CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR: *static_cast<double *>(ptr) = varPack->bn_exp_avg_factor; break;
            case CUDNN_SCALAR_DOUBLE_BN_EPSILON: *static_cast<double *>(ptr) = varPack->bn_epsilon; break;
            default: break;
        }
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnCreateFusedOpsPlan(cudnnFusedOpsPlan_t *plan, cudnnFusedOps_t ops) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("plan", static_cast<const void *>(plan)).arg("ops", ops);
        LIBREDNN_REQUIRE_NOT_NULL(plan);
        LIBREDNN_CHECK(librednn::check_fused_ops(ops, "ops"));
        auto *created = new cudnnFusedOpsPlanStruct();
        created->ops = ops;
        *plan = created;
        return CUDNN_STATUS_SUCCESS;
    });
}

cudnnStatus_t CUDNNWINAPI cudnnDestroyFusedOpsPlan(cudnnFusedOpsPlan_t plan) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.arg("plan", plan);
        delete plan;
        return CUDNN_STATUS_SUCCESS;
    });
}
