// The batch-normalisation rules.
#include "ops/batch_norm/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/tensor_rules.hpp"
#include "ops/common/type_rules.hpp"

#include <cmath>

namespace librednn {

Status validate_batch_norm(const BatchNormProblem &p) {
    if (batch_norm_mode_name(p.mode) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "mode is %d, must be CUDNN_BATCHNORM_PER_ACTIVATION, CUDNN_BATCHNORM_SPATIAL or "
                    "CUDNN_BATCHNORM_SPATIAL_PERSISTENT",
                    static_cast<int>(p.mode));
    }
    if (p.x.nb_dims != 4 && p.x.nb_dims != 5) {
        return fail(CUDNN_STATUS_BAD_PARAM, "xDesc has %d dims (%s): batch norm takes 4-d and 5-d tensors", p.x.nb_dims,
                    join_dims(p.x.dims, p.x.nb_dims).c_str());
    }
    const bool backward = p.phase == BatchNormPhase::backward;
    if (batch_norm_ops_name(p.ops) == nullptr) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "bnOps is %d, must be CUDNN_BATCHNORM_OPS_BN, CUDNN_BATCHNORM_OPS_BN_ACTIVATION or "
                    "CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION",
                    static_cast<int>(p.ops));
    }
    if (backward) {
        LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"dyDesc", &p.dy}, {"dxDesc", &p.dx}}));
        LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"dyDesc", &p.dy}, {"dxDesc", &p.dx}}));
        if (p.activation()) {
            LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"yDesc", &p.y}}));
            LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"yDesc", &p.y}}));
        }
        if (p.adds()) {
            LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"dzDesc", &p.z}}));
            LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"dzDesc", &p.z}}));
        }
    } else {
        if (p.adds()) {
            LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"zDesc", &p.z}}));
            LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"zDesc", &p.z}}));
        }
        LIBREDNN_CHECK(require_same_dims({{"xDesc", &p.x}, {"yDesc", &p.y}}));
        LIBREDNN_CHECK(require_same_type({{"xDesc", &p.x}, {"yDesc", &p.y}}));
    }
    if (!is_floating_point(p.x.dtype)) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "xDesc holds %s: batch norm takes float, double, half and bfloat16",
                    type_name(p.x.dtype));
    }
    const char *parameters = backward ? "dBnScaleBiasDesc" : "bnScaleBiasMeanVarDesc";
    int64_t expected[kMaxDims];
    batch_norm_parameter_dims(p.mode, p.x.nb_dims, p.x.dims, expected);
    bool dims_match = p.parameters.nb_dims == p.x.nb_dims;
    for (int i = 0; dims_match && i < p.x.nb_dims; ++i) dims_match = p.parameters.dims[i] == expected[i];
    if (!dims_match) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %s; for xDesc %s in mode %s it must be %s (cudnnDeriveBNTensorDescriptor)", parameters,
                    join_dims(p.parameters.dims, p.parameters.nb_dims).c_str(),
                    join_dims(p.x.dims, p.x.nb_dims).c_str(), batch_norm_mode_name(p.mode),
                    join_dims(expected, p.x.nb_dims).c_str());
    }
    const cudnnDataType_t parameter_type = p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    if (p.parameters.dtype != parameter_type) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s holds %s; for %s data the parameters are %s", parameters,
                    type_name(p.parameters.dtype), type_name(p.x.dtype), type_name(parameter_type));
    }
    if (!(p.epsilon >= CUDNN_BN_MIN_EPSILON)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "epsilon is %g; it must be at least CUDNN_BN_MIN_EPSILON (%g)", p.epsilon,
                    static_cast<double>(CUDNN_BN_MIN_EPSILON));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const BatchNormProblem &p, const BatchNormBuffers &b) {
    const bool backward = p.phase == BatchNormPhase::backward;
    const cudnnDataType_t param = p.parameters.dtype;
    LIBREDNN_CHECK(require_aligned({{"x", b.x, p.x.dtype},
                                    {"dy", b.dy, p.dy.dtype},
                                    {backward ? "dx" : "y", b.result, p.result().dtype},
                                    {"y", b.y, p.x.dtype},
                                    {"z", b.z, p.z.dtype},
                                    {"dz", b.dz, p.z.dtype}}));
    return require_aligned({{"bnScale", b.scale, param},
                            {"bnBias", b.bias, param},
                            {backward ? "savedMean" : "estimatedMean", b.mean, param},
                            {backward ? "savedInvVariance" : "estimatedVariance", b.variance, param},
                            {"resultRunningMean", b.running_mean, param},
                            {"resultRunningVariance", b.running_variance, param},
                            {"resultSaveMean", b.saved_mean, param},
                            {"resultSaveInvVariance", b.saved_inv_variance, param},
                            {"dBnScaleResult", b.dscale, param},
                            {"dBnBiasResult", b.dbias, param}});
}

}  // namespace librednn
