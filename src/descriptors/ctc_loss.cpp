// Rules of the CTC loss descriptor and its one-line description.
#include "descriptors/ctc_loss.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

namespace librednn {

Status set_ctc_loss(cudnnCTCLossStruct *desc, cudnnDataType_t comp_type, cudnnLossNormalizationMode_t norm_mode,
                    cudnnNanPropagation_t grad_mode, int max_label_length) {
    if (!is_valid_data_type(comp_type))
        return fail(CUDNN_STATUS_BAD_PARAM, "compType is %d, not a cudnnDataType_t", static_cast<int>(comp_type));
    if (enum_name(norm_mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "normMode is %d, not a cudnnLossNormalizationMode_t (CUDNN_LOSS_NORMALIZATION_NONE or "
                    "CUDNN_LOSS_NORMALIZATION_SOFTMAX)",
                    static_cast<int>(norm_mode));
    if (enum_name(grad_mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "gradMode is %d, not a cudnnNanPropagation_t (CUDNN_NOT_PROPAGATE_NAN or CUDNN_PROPAGATE_NAN)",
                    static_cast<int>(grad_mode));
    if (max_label_length < 0)
        return fail(CUDNN_STATUS_BAD_PARAM, "maxLabelLength is %d, must be >= 0", max_label_length);
    desc->comp_type = comp_type;
    desc->norm_mode = norm_mode;
    desc->grad_mode = grad_mode;
    desc->max_label_length = max_label_length;
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_ctc_loss_set(const cudnnCTCLossStruct &desc) {
    if (!desc.is_set)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "ctcLossDesc has not been set (call cudnnSetCTCLossDescriptor, cudnnSetCTCLossDescriptorEx or "
                    "cudnnSetCTCLossDescriptor_v8 first)");
    return CUDNN_STATUS_SUCCESS;
}

std::string ctc_loss_to_string(const cudnnCTCLossStruct &desc) {
    if (!desc.is_set) return "unset";
    return std::string(data_type_short_name(desc.comp_type)) +
           (desc.norm_mode == CUDNN_LOSS_NORMALIZATION_SOFTMAX ? " norm=softmax" : " norm=none") +
           (desc.grad_mode == CUDNN_PROPAGATE_NAN ? " grad=propagate_nan" : " grad=not_propagate_nan") +
           " maxLabelLength=" + std::to_string(desc.max_label_length);
}

namespace api {

std::string describe(const cudnnCTCLossStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "CTCLossDescriptor{" + ctc_loss_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
