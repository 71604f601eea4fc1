// The convolution rules: shapes, data-type configurations, layouts, epilogue.
#include "ops/conv/validate.hpp"

#include "ops/common/buffer_alignment.hpp"
#include "ops/common/element_access.hpp"
#include "ops/common/type_rules.hpp"
#include "ops/conv/solvers.hpp"

#include <string>

namespace librednn {

namespace {

struct Names {
    const char *x, *w, *y;
};

Names names_of(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward: return {"xDesc", "wDesc", "yDesc"};
        case ConvDirection::backward_data: return {"dxDesc", "wDesc", "dyDesc"};
        case ConvDirection::backward_filter: return {"xDesc", "dwDesc", "dyDesc"};
    }
    return {"x", "w", "y"};
}

bool is_int8_family(cudnnDataType_t type) {
    return type == CUDNN_DATA_INT8 || type == CUDNN_DATA_UINT8 || type == CUDNN_DATA_INT8x4 ||
           type == CUDNN_DATA_UINT8x4 || type == CUDNN_DATA_INT8x32;
}

std::string dims_text(const TensorGeometry &g) { return join_dims(g.dims, g.nb_dims); }

}  // namespace

const char *conv_type_config_name(ConvTypeConfig config) {
    switch (config) {
        case ConvTypeConfig::true_half: return "TRUE_HALF_CONFIG";
        case ConvTypeConfig::pseudo_half: return "PSEUDO_HALF_CONFIG";
        case ConvTypeConfig::pseudo_bfloat16: return "PSEUDO_BFLOAT16_CONFIG";
        case ConvTypeConfig::float_config: return "FLOAT_CONFIG";
        case ConvTypeConfig::double_config: return "DOUBLE_CONFIG";
        case ConvTypeConfig::int8: return "INT8_CONFIG";
        case ConvTypeConfig::int8_ext: return "INT8_EXT_CONFIG";
        case ConvTypeConfig::int8x4: return "INT8x4_CONFIG";
        case ConvTypeConfig::int8x4_ext: return "INT8x4_EXT_CONFIG";
        case ConvTypeConfig::int8x32: return "INT8x32_CONFIG";
    }
    return "?";
}

bool is_integer_config(ConvTypeConfig config) {
    return config == ConvTypeConfig::int8 || config == ConvTypeConfig::int8_ext || config == ConvTypeConfig::int8x4 ||
           config == ConvTypeConfig::int8x4_ext || config == ConvTypeConfig::int8x32;
}

bool conv_type_config(const ConvProblem &p, ConvTypeConfig *config, Status *status) {
    const Names names = names_of(p.direction);
    const cudnnDataType_t x = p.x.dtype, w = p.w.dtype, y = p.y.dtype, compute = p.compute_type;
    const bool forward = p.direction == ConvDirection::forward;
    if (is_int8_family(x) || is_int8_family(w)) {
        if (!forward) {
            *status = fail(CUDNN_STATUS_NOT_SUPPORTED,
                           "%s holds %s: %s convolutions take half, bfloat16, float and double data (int8 is forward "
                           "only)",
                           names.w, type_name(w), conv_direction_name(p.direction));
            return false;
        }
        if (compute != CUDNN_DATA_INT32) {
            *status = fail(CUDNN_STATUS_NOT_SUPPORTED,
                           "int8 convolutions compute in CUDNN_DATA_INT32 (convDesc's computeType), got %s",
                           type_name(compute));
            return false;
        }
        struct Row {
            cudnnDataType_t x, w, y;
            ConvTypeConfig config;
        };
        const Row rows[] = {
            {CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8, ConvTypeConfig::int8},
            {CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT, ConvTypeConfig::int8_ext},
            {CUDNN_DATA_UINT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8, ConvTypeConfig::int8},
            {CUDNN_DATA_UINT8, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT, ConvTypeConfig::int8_ext},
            {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, ConvTypeConfig::int8x4},
            {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_FLOAT, ConvTypeConfig::int8x4_ext},
            {CUDNN_DATA_UINT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, ConvTypeConfig::int8x4},
            {CUDNN_DATA_UINT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_FLOAT, ConvTypeConfig::int8x4_ext},
            {CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x32, ConvTypeConfig::int8x32},
        };
        for (const Row &row : rows) {
            if (row.x == x && row.w == w && row.y == y) {
                *config = row.config;
                return true;
            }
        }
        *status = fail(CUDNN_STATUS_BAD_PARAM,
                       "%s, %s and %s hold %s, %s and %s: no int8 configuration of cuDNN takes these together "
                       "(INT8 or UINT8 x with INT8 w and an INT8 or FLOAT y; the same with the x4 vector types; "
                       "INT8x32 throughout)",
                       names.x, names.w, names.y, type_name(x), type_name(w), type_name(y));
        return false;
    }
    if (x != w || x != y) {
        *status = fail(CUDNN_STATUS_BAD_PARAM, "%s, %s and %s hold %s, %s and %s: they must hold one data type",
                       names.x, names.w, names.y, type_name(x), type_name(w), type_name(y));
        return false;
    }
    switch (x) {
        case CUDNN_DATA_HALF:
            if (compute == CUDNN_DATA_HALF) return *config = ConvTypeConfig::true_half, true;
            if (compute == CUDNN_DATA_FLOAT) return *config = ConvTypeConfig::pseudo_half, true;
            break;
        case CUDNN_DATA_BFLOAT16:
            if (compute == CUDNN_DATA_FLOAT) return *config = ConvTypeConfig::pseudo_bfloat16, true;
            break;
        case CUDNN_DATA_FLOAT:
            if (compute == CUDNN_DATA_FLOAT) return *config = ConvTypeConfig::float_config, true;
            break;
        case CUDNN_DATA_DOUBLE:
            if (compute == CUDNN_DATA_DOUBLE) return *config = ConvTypeConfig::double_config, true;
            break;
        default:
            *status = fail(CUDNN_STATUS_NOT_SUPPORTED,
                           "%s holds %s: convolutions take half, bfloat16, float, double and int8 data", names.x,
                           type_name(x));
            return false;
    }
    *status = fail(CUDNN_STATUS_NOT_SUPPORTED,
                   "%s data with computeType %s is not a cuDNN configuration (half: HALF or FLOAT; bfloat16 and "
                   "float: FLOAT; double: DOUBLE)",
                   type_name(x), type_name(compute));
    return false;
}

const char *int8_algorithm_refusal(const ConvProblem &p, int algorithm) {
    if (!is_int8_family(p.x.dtype) && !is_int8_family(p.w.dtype)) return nullptr;
    if (algorithm == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM) return nullptr;
    const bool x32 = p.x.dtype == CUDNN_DATA_INT8x32 || p.w.dtype == CUDNN_DATA_INT8x32;
    if (algorithm == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM) {
        return x32 ? "cuDNN 8 runs INT8x32_CONFIG under CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM only"
                   : nullptr;
    }
    return x32 ? "cuDNN 8 runs INT8x32_CONFIG under CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM only"
               : "cuDNN 8 runs the int8 configurations under CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM and "
                 "IMPLICIT_PRECOMP_GEMM only";
}

Status validate_convolution(const ConvProblem &p) {
    const Names names = names_of(p.direction);
    const int nb_dims = p.x.nb_dims;
    if (p.w.nb_dims != nb_dims || p.y.nb_dims != nb_dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s, %s and %s have %d, %d and %d dims: they must have as many", names.x,
                    names.w, names.y, nb_dims, p.w.nb_dims, p.y.nb_dims);
    }
    if (nb_dims < 3 || p.spatial_dims != nb_dims - 2) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "convDesc has %d spatial dims and %s %d dims: a convolution of n spatial dims takes tensors of "
                    "n + 2 dims, at least 3",
                    p.spatial_dims, names.x, nb_dims);
    }
    if (p.groups < 1 || p.x.dims[1] != p.w.dims[1] * p.groups) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s has %lld channels, %s %lld per group with groupCount %lld: channels must equal the filter's "
                    "C times the group count",
                    names.x, static_cast<long long>(p.x.dims[1]), names.w, static_cast<long long>(p.w.dims[1]),
                    static_cast<long long>(p.groups));
    }
    if (p.w.dims[0] % p.groups != 0) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has %lld filters, not a multiple of groupCount %lld", names.w,
                    static_cast<long long>(p.w.dims[0]), static_cast<long long>(p.groups));
    }
    int64_t expected[kMaxDims] = {};
    conv_output_dims(p, p.x.dims, p.w.dims, expected);
    for (int i = 0; i < p.spatial_dims; ++i) {
        if (expected[i + 2] < 1) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "along spatial dim %d the dilated filter spans %lld ((%lld - 1) x dilation %lld + 1), more "
                        "than %s's padded extent %lld (%lld + 2 x pad %lld)",
                        i, static_cast<long long>((p.w.dims[i + 2] - 1) * p.dilation[i] + 1),
                        static_cast<long long>(p.w.dims[i + 2]), static_cast<long long>(p.dilation[i]), names.x,
                        static_cast<long long>(p.x.dims[i + 2] + 2 * p.pad[i]), static_cast<long long>(p.x.dims[i + 2]),
                        static_cast<long long>(p.pad[i]));
        }
    }
    for (int i = 0; i < nb_dims; ++i) {
        if (p.y.dims[i] != expected[i]) {
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s, but the convolution of %s %s with %s %s gives %s", names.y,
                        dims_text(p.y).c_str(), names.x, dims_text(p.x).c_str(), names.w, dims_text(p.w).c_str(),
                        join_dims(expected, nb_dims).c_str());
        }
    }
    ConvTypeConfig config = ConvTypeConfig::float_config;
    Status status = CUDNN_STATUS_SUCCESS;
    if (!conv_type_config(p, &config, &status)) return status;
    if (config == ConvTypeConfig::int8 || config == ConvTypeConfig::int8_ext) {
        if (p.filter_format != CUDNN_TENSOR_NHWC) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED, "int8 convolutions take %s in CUDNN_TENSOR_NHWC (KRSC)", names.w);
        }
    }
    if (p.mode != CUDNN_CONVOLUTION && p.mode != CUDNN_CROSS_CORRELATION) {
        return fail(CUDNN_STATUS_BAD_PARAM, "the convolution mode is %d, not a cudnnConvolutionMode_t",
                    static_cast<int>(p.mode));
    }
    if (p.epilogue.fused) {
        const ConvEpilogue &e = p.epilogue;
        if (e.bias.nb_dims != nb_dims || e.bias.dims[1] != p.y.dims[1]) {
            return fail(CUDNN_STATUS_BAD_PARAM, "biasDesc is %s: it must be 1 x %lld (yDesc's channels) x 1...",
                        dims_text(e.bias).c_str(), static_cast<long long>(p.y.dims[1]));
        }
        for (int i = 0; i < nb_dims; ++i) {
            if (i != 1 && e.bias.dims[i] != 1) {
                return fail(CUDNN_STATUS_BAD_PARAM, "biasDesc is %s: every dim but C must be 1",
                            dims_text(e.bias).c_str());
            }
        }
        if (!same_dims(e.z, p.y)) {
            return fail(CUDNN_STATUS_BAD_PARAM, "zDesc is %s and yDesc %s: they must have the same dims",
                        dims_text(e.z).c_str(), dims_text(p.y).c_str());
        }
        // cuDNN 8 fuses RELU and IDENTITY (the latter only with IMPLICIT_PRECOMP_GEMM, checked with the
        // algorithm).
        if (e.activation != CUDNN_ACTIVATION_RELU && e.activation != CUDNN_ACTIVATION_IDENTITY) {
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "activationDesc's mode is %d: the fused convolution applies CUDNN_ACTIVATION_RELU or "
                        "CUDNN_ACTIVATION_IDENTITY",
                        static_cast<int>(e.activation));
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status validate_im2col(const ConvProblem &problem) {
    if (problem.x.vector() > 1) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnIm2Col does not take vectorised (%s) tensors",
                    data_type_short_name(problem.x.dtype));
    }
    const size_t bytes = scalar_size_of(problem.x.dtype);
    if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "cudnnIm2Col copies elements of 1, 2, 4 or 8 bytes; xDesc holds %s",
                    data_type_short_name(problem.x.dtype));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status buffer_alignment(const ConvProblem &p, const ConvBuffers &b) {
    const char *result = p.direction == ConvDirection::forward         ? "y"
                         : p.direction == ConvDirection::backward_data ? "dx"
                                                                       : "dw";
    return require_aligned({{"x", b.x, p.x.dtype},
                            {"w", b.w, p.w.dtype},
                            {"dy", b.y, p.y.dtype},
                            // z is not read when alpha2 is 0.
                            {"z", p.epilogue.fused && p.epilogue.alpha2 != 0.0 ? b.z : nullptr, p.epilogue.z.dtype},
                            {"bias", p.epilogue.fused ? b.bias : nullptr, p.epilogue.bias.dtype},
                            {result, b.result, p.result().dtype}});
}

Status buffer_alignment(const ConvProblem &p, const Im2ColBuffers &b) {
    return require_aligned({{"x", b.x, p.x.dtype}, {"colBuffer", b.col, p.x.dtype}});
}

}  // namespace librednn
