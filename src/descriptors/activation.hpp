// The activation descriptor (cudnnActivationDescriptor_t): mode, NaN option, coefficient and swish beta.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

struct cudnnActivationStruct {
    bool is_set = false;  // false until cudnnSetActivationDescriptor succeeds
    cudnnActivationMode_t mode = CUDNN_ACTIVATION_RELU;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    double coef = 0.0;  // the clipping threshold of CLIPPED_RELU, the alpha of ELU; unused by other modes
    // The beta of SWISH (x * sigmoid(beta * x)). It has its own setter, so it is independent of
    // is_set; 1.0 until cudnnSetActivationDescriptorSwishBeta is called.
    double swish_beta = 1.0;
};

namespace librednn {

// Sets mode, NaN option and coefficient after checking the enums. The coefficient is stored as
// given: cuDNN documents no range for it.
Status set_activation(cudnnActivationStruct *desc, cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt,
                      double coef);

// CUDNN_STATUS_BAD_PARAM naming `name` when `desc` has not been set.
Status require_activation_set(const cudnnActivationStruct &desc, const char *name);

// "CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_NOT_PROPAGATE_NAN, coef 6, swish beta 1" ("unset" before a
// Set), for log lines.
std::string activation_to_string(const cudnnActivationStruct &desc);

}  // namespace librednn
