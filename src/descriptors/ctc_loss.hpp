// The CTC loss descriptor (cudnnCTCLossDescriptor_t): compute type, input normalisation, NaN handling
// of the gradients and the longest label, with cuDNN's rules.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

// The maxLabelLength a descriptor holds when a setter without that argument (cudnnSetCTCLossDescriptor,
// cudnnSetCTCLossDescriptorEx) set it: cuDNN's CTC loss accepts labels of at most 256 entries.
constexpr int kDefaultCtcMaxLabelLength = 256;

}  // namespace librednn

struct cudnnCTCLossStruct {
    bool is_set = false;  // false until one of the cudnnSetCTCLossDescriptor* functions succeeds
    cudnnDataType_t comp_type = CUDNN_DATA_FLOAT;
    // What cudnnSetCTCLossDescriptor implies: probabilities already normalised, NaN gradients kept.
    cudnnLossNormalizationMode_t norm_mode = CUDNN_LOSS_NORMALIZATION_NONE;
    cudnnNanPropagation_t grad_mode = CUDNN_NOT_PROPAGATE_NAN;
    int max_label_length = librednn::kDefaultCtcMaxLabelLength;
};

namespace librednn {

// Checks every argument of the longest setter and, when they hold, sets `desc`.
Status set_ctc_loss(cudnnCTCLossStruct *desc, cudnnDataType_t comp_type, cudnnLossNormalizationMode_t norm_mode,
                    cudnnNanPropagation_t grad_mode, int max_label_length);

// CUDNN_STATUS_BAD_PARAM when `desc` has not been set yet.
Status require_ctc_loss_set(const cudnnCTCLossStruct &desc);

// "float norm=softmax grad=not_propagate_nan maxLabelLength=256", for log lines.
std::string ctc_loss_to_string(const cudnnCTCLossStruct &desc);

}  // namespace librednn
