// The activation descriptor's rules and its one-line description.
#include "descriptors/activation.hpp"

#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"
#include "descriptors/enum_check.hpp"

#include <cstdio>

namespace librednn {

Status set_activation(cudnnActivationStruct *desc, cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt,
                      double coef) {
    LIBREDNN_CHECK(check_enum(mode, "mode", "cudnnActivationMode_t"));
    LIBREDNN_CHECK(check_enum(nan_opt, "reluNanOpt", "cudnnNanPropagation_t"));
    desc->mode = mode;
    desc->nan_opt = nan_opt;
    desc->coef = coef;
    desc->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_activation_set(const cudnnActivationStruct &desc, const char *name) {
    if (desc.is_set) return CUDNN_STATUS_SUCCESS;
    return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetActivationDescriptor first)", name);
}

namespace {

std::string number(double value) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.9g", value);
    return buffer;
}

}  // namespace

std::string activation_to_string(const cudnnActivationStruct &desc) {
    const std::string swish = "swish beta " + number(desc.swish_beta);
    if (!desc.is_set) return "unset, " + swish;
    return std::string(enum_name(desc.mode)) + ", " + enum_name(desc.nan_opt) + ", coef " + number(desc.coef) + ", " +
           swish;
}

namespace api {

std::string describe(const cudnnActivationStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "ActivationDescriptor{" + activation_to_string(*desc) + "}";
}

}  // namespace api
}  // namespace librednn
