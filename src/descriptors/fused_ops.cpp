// Fused-ops parameter packs and plans: label kinds, the ops check, one-line descriptions.
#include "descriptors/fused_ops.hpp"

#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <cinttypes>
#include <cstdio>

namespace librednn {

ConstParamKind const_param_kind(cudnnFusedOpsConstParamLabel_t label) {
    switch (label) {
        case CUDNN_PARAM_XDESC:
        case CUDNN_PARAM_BN_EQSCALEBIAS_DESC:
        case CUDNN_PARAM_YDESC:
        case CUDNN_PARAM_DYDESC:
        case CUDNN_PARAM_YSTATS_DESC:
        case CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC:
        case CUDNN_PARAM_ZDESC:
        case CUDNN_PARAM_BN_Z_EQSCALEBIAS_DESC:
        case CUDNN_PARAM_ACTIVATION_BITMASK_DESC:
        case CUDNN_PARAM_DXDESC:
        case CUDNN_PARAM_DZDESC: return ConstParamKind::tensor_descriptor;
        case CUDNN_PARAM_WDESC:
        case CUDNN_PARAM_DWDESC: return ConstParamKind::filter_descriptor;
        case CUDNN_PARAM_CONV_DESC: return ConstParamKind::convolution_descriptor;
        case CUDNN_PARAM_ACTIVATION_DESC: return ConstParamKind::activation_descriptor;
        case CUDNN_PARAM_BN_MODE: return ConstParamKind::batch_norm_mode;
        default: return ConstParamKind::pointer_placeholder;  // every *_PLACEHOLDER label
    }
}

Status check_fused_ops(cudnnFusedOps_t ops, const char *name) {
    if (enum_name(ops) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %d, not a cudnnFusedOps_t (CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS (0) to "
                    "CUDNN_FUSED_DACTIVATION_FORK_DBATCHNORM (6))",
                    name, static_cast<int>(ops));
    return CUDNN_STATUS_SUCCESS;
}

const char *fused_ops_name(cudnnFusedOps_t ops) {
    const char *name = enum_name(ops);
    return name ? name : "?";
}

namespace {

const char *label_name(cudnnFusedOpsConstParamLabel_t label) {
    const char *name = enum_name(label);
    return name ? name : "?";
}

std::string pointer_text(const void *pointer) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "0x%" PRIxPTR, reinterpret_cast<uintptr_t>(pointer));
    return buffer;
}

std::string number_text(double value) {
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return buffer;
}

}  // namespace

namespace api {

std::string describe(const cudnnFusedOpsConstParamStruct *desc) {
    if (desc == nullptr) return "NULL";
    std::string text = std::string("FusedOpsConstParamPack{") + fused_ops_name(desc->ops);
    for (const auto &[label, tensor] : desc->tensors)
        text += std::string(", ") + label_name(label) + "=" + tensor_to_string(tensor);
    for (const auto &[label, filter] : desc->filters)
        text += std::string(", ") + label_name(label) + "=" + filter_to_string(filter);
    if (desc->convolution) text += ", CUDNN_PARAM_CONV_DESC=" + convolution_to_string(*desc->convolution);
    if (desc->activation) text += ", CUDNN_PARAM_ACTIVATION_DESC=" + activation_to_string(*desc->activation);
    for (const auto &[label, placeholder] : desc->placeholders) {
        const char *value = enum_name(placeholder);
        text += std::string(", ") + label_name(label) + "=" + (value ? value : "?");
    }
    const char *bn_mode = enum_name(desc->batch_norm_mode);
    text += std::string(", CUDNN_PARAM_BN_MODE=") + (bn_mode ? bn_mode : "?") + "}";
    return text;
}

std::string describe(const cudnnFusedOpsVariantParamStruct *desc) {
    if (desc == nullptr) return "NULL";
    std::string text = std::string("FusedOpsVariantParamPack{") + fused_ops_name(desc->ops);
    for (int i = 0; i < kFusedOpsVariantPointerCount; ++i) {
        if (desc->pointers[i] == nullptr) continue;
        const char *name = enum_name(static_cast<cudnnFusedOpsVariantParamLabel_t>(i));
        text += std::string(", ") + (name ? name : "?") + "=" + pointer_text(desc->pointers[i]);
    }
    text += ", workspace " + std::to_string(desc->workspace_size_in_bytes) + " bytes";
    text += ", bn accumulation count " + std::to_string(desc->bn_accumulation_count);
    text += ", bn exp avg factor " + number_text(desc->bn_exp_avg_factor);
    text += ", bn epsilon " + number_text(desc->bn_epsilon) + "}";
    return text;
}

std::string describe(const cudnnFusedOpsPlanStruct *desc) {
    if (desc == nullptr) return "NULL";
    std::string text = std::string("FusedOpsPlan{") + fused_ops_name(desc->ops);
    if (desc->is_made)
        text += ", made (" + to_problem_string(desc->problem).to_string() + "), solver " +
                (desc->solver ? desc->solver->name() : "?") + ", workspace " +
                std::to_string(desc->workspace_size_in_bytes) + " bytes";
    else
        text += ", not made";
    return text + "}";
}

}  // namespace api

}  // namespace librednn
