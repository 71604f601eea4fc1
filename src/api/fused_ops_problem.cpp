// The fused-ops problem builder: constant pack -> FusedOpsProblem, variant pack -> FusedOpsBuffers.
#include "api/fused_ops_problem.hpp"

#include "api/convolution_problem.hpp"
#include "api/from_descriptors.hpp"
#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"

#include <cstdint>

namespace librednn::api {

namespace {

// What a workspace pointer must be aligned to, as a CUDNN_PTR_16B_ALIGNED placeholder promises of the others.
constexpr size_t kWorkspaceAlignment = 16;

const char *label_name(int label) {
    const char *name = enum_name(static_cast<cudnnFusedOpsConstParamLabel_t>(label));
    return name ? name : "?";
}

const char *variant_name(cudnnFusedOpsVariantParamLabel_t label) {
    const char *name = enum_name(label);
    return name ? name : "?";
}

// Reads the constant pack for one fusion, naming it in every message.
class PackReader {
public:
    PackReader(const cudnnFusedOpsConstParamStruct &pack, std::vector<FusedOpsPointer> *pointers)
        : pack_(pack), ops_(fused_ops_name(pack.ops)), pointers_(pointers) {}

    const char *ops() const { return ops_; }

    cudnnFusedOpsPointerPlaceHolder_t placeholder(cudnnFusedOpsConstParamLabel_t label) const {
        const auto found = pack_.placeholders.find(label);
        return found == pack_.placeholders.end() ? CUDNN_PTR_NULL : found->second;
    }
    bool uses(cudnnFusedOpsConstParamLabel_t label) const { return placeholder(label) != CUDNN_PTR_NULL; }

    const cudnnTensorStruct *tensor(cudnnFusedOpsConstParamLabel_t label) const {
        const auto found = pack_.tensors.find(label);
        return found == pack_.tensors.end() ? nullptr : &found->second;
    }
    const cudnnFilterStruct *filter(cudnnFusedOpsConstParamLabel_t label) const {
        const auto found = pack_.filters.find(label);
        return found == pack_.filters.end() ? nullptr : &found->second;
    }

    Status require_set(bool is_set, cudnnFusedOpsConstParamLabel_t label, const char *why) const {
        if (!is_set)
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is not set in the constant pack; %s needs it (%s)",
                        label_name(label), ops_, why);
        return CUDNN_STATUS_SUCCESS;
    }

    // A pointer the fusion cannot do without: its placeholder must not be CUDNN_PTR_NULL.
    Status require_pointer(cudnnFusedOpsConstParamLabel_t label, cudnnFusedOpsVariantParamLabel_t pointer,
                           cudnnDataType_t type) const {
        if (!uses(label))
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "%s is CUDNN_PTR_NULL, but %s cannot run without %s; set it to CUDNN_PTR_ELEM_ALIGNED or "
                        "CUDNN_PTR_16B_ALIGNED",
                        label_name(label), ops_, variant_name(pointer));
        add_pointer(label, pointer, type);
        return CUDNN_STATUS_SUCCESS;
    }

    // An optional pointer: used when its placeholder is not CUDNN_PTR_NULL.
    bool optional_pointer(cudnnFusedOpsConstParamLabel_t label, cudnnFusedOpsVariantParamLabel_t pointer,
                          cudnnDataType_t type) const {
        if (!uses(label)) return false;
        add_pointer(label, pointer, type);
        return true;
    }

private:
    void add_pointer(cudnnFusedOpsConstParamLabel_t label, cudnnFusedOpsVariantParamLabel_t pointer,
                     cudnnDataType_t type) const {
        FusedOpsPointer entry;
        entry.label = pointer;
        entry.placeholder = placeholder(label);
        entry.element_bytes = data_type_size(type);
        pointers_->push_back(entry);
    }

    const cudnnFusedOpsConstParamStruct &pack_;
    const char *ops_;
    std::vector<FusedOpsPointer> *pointers_;
};

// [1, C, 1...] with as many dims as `rank` (4 or 5 for the finalize ops, where rank is 0).
Status check_per_channel(const TensorGeometry &g, int64_t channels, int rank, cudnnFusedOpsConstParamLabel_t label,
                         const char *ops) {
    bool ok = g.nb_dims >= 4 && g.nb_dims <= 5 && (rank == 0 || g.nb_dims == rank) && g.dims[1] == channels;
    for (int i = 0; ok && i < g.nb_dims; ++i)
        if (i != 1 && g.dims[i] != 1) ok = false;
    if (!ok) {
        std::string dims;
        for (int i = 0; i < g.nb_dims; ++i) dims += (i ? "x" : "") + std::to_string(g.dims[i]);
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s; %s needs 1x%lldx1x1%s (one value per channel)",
                    label_name(label), dims.c_str(), ops, static_cast<long long>(channels), rank == 5 ? "x1" : "");
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_type(cudnnDataType_t type, std::initializer_list<cudnnDataType_t> allowed,
                  cudnnFusedOpsConstParamLabel_t label, const char *ops, const char *allowed_text) {
    for (cudnnDataType_t a : allowed)
        if (type == a) return CUDNN_STATUS_SUCCESS;
    const char *name = enum_name(type);
    return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s has data type %s; %s takes %s there", label_name(label),
                name ? name : "?", ops, allowed_text);
}

Status convolution_fusion(const cudnnFusedOpsConstParamStruct &pack, const PackReader &read, FusedOpsProblem *p) {
    const bool forward = pack.ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    const cudnnTensorStruct *x = read.tensor(CUDNN_PARAM_XDESC);
    const cudnnFilterStruct *w = read.filter(forward ? CUDNN_PARAM_WDESC : CUDNN_PARAM_DWDESC);
    const cudnnTensorStruct *y = read.tensor(forward ? CUDNN_PARAM_YDESC : CUDNN_PARAM_DYDESC);
    LIBREDNN_CHECK(read.require_set(x != nullptr, CUDNN_PARAM_XDESC, "the convolution's input"));
    LIBREDNN_CHECK(read.require_set(pack.convolution.has_value(), CUDNN_PARAM_CONV_DESC, "the convolution"));
    LIBREDNN_CHECK(read.require_set(w != nullptr, forward ? CUDNN_PARAM_WDESC : CUDNN_PARAM_DWDESC,
                                    forward ? "the filter" : "the filter gradient it writes"));
    LIBREDNN_CHECK(read.require_set(y != nullptr, forward ? CUDNN_PARAM_YDESC : CUDNN_PARAM_DYDESC,
                                    forward ? "the output it writes" : "the output gradient"));
    const ConvDirection direction = forward ? ConvDirection::forward : ConvDirection::backward_filter;
    LIBREDNN_CHECK(convolution_problem_of(direction, x, w, &*pack.convolution, y, &p->conv));

    const TensorGeometry &xg = p->conv.x;
    const bool in_double = xg.dtype == CUDNN_DATA_DOUBLE;
    if (xg.dtype != p->conv.y.dtype || xg.dtype != p->conv.w.dtype) {
        return fail(CUDNN_STATUS_NOT_SUPPORTED, "%s needs x, %s and %s of one data type; they are %s, %s and %s",
                    read.ops(), forward ? "w" : "dw", forward ? "y" : "dy", enum_name(xg.dtype),
                    enum_name(p->conv.w.dtype), enum_name(p->conv.y.dtype));
    }
    LIBREDNN_CHECK(check_type(xg.dtype, {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16, CUDNN_DATA_DOUBLE},
                              CUDNN_PARAM_XDESC, read.ops(), "float, half, bfloat16 or double data"));
    LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_XDATA_PLACEHOLDER, CUDNN_PTR_XDATA, xg.dtype));
    if (forward) {
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_WDATA_PLACEHOLDER, CUDNN_PTR_WDATA, p->conv.w.dtype));
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_YDATA_PLACEHOLDER, CUDNN_PTR_YDATA, p->conv.y.dtype));
    } else {
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_DWDATA_PLACEHOLDER, CUDNN_PTR_DWDATA, p->conv.w.dtype));
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_DYDATA_PLACEHOLDER, CUDNN_PTR_DYDATA, p->conv.y.dtype));
    }

    // The prologue: scale and bias each optional, as their placeholders say.
    p->has_scale = read.uses(CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER);
    p->has_bias = read.uses(CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER);
    if (p->has_scale || p->has_bias) {
        const cudnnTensorStruct *eq = read.tensor(CUDNN_PARAM_BN_EQSCALEBIAS_DESC);
        LIBREDNN_CHECK(read.require_set(eq != nullptr, CUDNN_PARAM_BN_EQSCALEBIAS_DESC,
                                        "its eqScale or eqBias placeholder is not CUDNN_PTR_NULL"));
        p->eq_scale_bias = geometry_of(*eq);
        LIBREDNN_CHECK(
            check_per_channel(p->eq_scale_bias, xg.dims[1], xg.nb_dims, CUDNN_PARAM_BN_EQSCALEBIAS_DESC, read.ops()));
        if (in_double)
            LIBREDNN_CHECK(check_type(p->eq_scale_bias.dtype, {CUDNN_DATA_DOUBLE}, CUDNN_PARAM_BN_EQSCALEBIAS_DESC,
                                      read.ops(), "double (as x is)"));
        else
            LIBREDNN_CHECK(check_type(p->eq_scale_bias.dtype, {CUDNN_DATA_FLOAT, xg.dtype},
                                      CUDNN_PARAM_BN_EQSCALEBIAS_DESC, read.ops(), "float or x's data type"));
        read.optional_pointer(CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER, CUDNN_PTR_BN_EQSCALE, p->eq_scale_bias.dtype);
        read.optional_pointer(CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER, CUDNN_PTR_BN_EQBIAS, p->eq_scale_bias.dtype);
    }
    if (pack.activation) {
        const cudnnActivationMode_t mode = pack.activation->mode;
        if (mode != CUDNN_ACTIVATION_RELU && mode != CUDNN_ACTIVATION_IDENTITY) {
            const char *name = enum_name(mode);
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "CUDNN_PARAM_ACTIVATION_DESC has mode %s; %s applies CUDNN_ACTIVATION_RELU or "
                        "CUDNN_ACTIVATION_IDENTITY (or none, with no descriptor)",
                        name ? name : "?", read.ops());
        }
        p->activation = mode;
    }

    if (forward) {
        p->has_sum = read.uses(CUDNN_PARAM_YSUM_PLACEHOLDER);
        p->has_square_sum = read.uses(CUDNN_PARAM_YSQSUM_PLACEHOLDER);
        if (p->has_sum || p->has_square_sum) {
            const cudnnTensorStruct *stats = read.tensor(CUDNN_PARAM_YSTATS_DESC);
            LIBREDNN_CHECK(read.require_set(stats != nullptr, CUDNN_PARAM_YSTATS_DESC,
                                            "its ySum or ySqSum placeholder is not CUDNN_PTR_NULL"));
            p->stats = geometry_of(*stats);
            LIBREDNN_CHECK(
                check_per_channel(p->stats, p->conv.y.dims[1], p->conv.y.nb_dims, CUDNN_PARAM_YSTATS_DESC, read.ops()));
            if (in_double)
                LIBREDNN_CHECK(check_type(p->stats.dtype, {CUDNN_DATA_DOUBLE}, CUDNN_PARAM_YSTATS_DESC, read.ops(),
                                          "double (as y is)"));
            else
                LIBREDNN_CHECK(
                    check_type(p->stats.dtype, {CUDNN_DATA_FLOAT}, CUDNN_PARAM_YSTATS_DESC, read.ops(), "float"));
            read.optional_pointer(CUDNN_PARAM_YSUM_PLACEHOLDER, CUDNN_PTR_YSUM, p->stats.dtype);
            read.optional_pointer(CUDNN_PARAM_YSQSUM_PLACEHOLDER, CUDNN_PTR_YSQSUM, p->stats.dtype);
        }
    }
    return CUDNN_STATUS_SUCCESS;
}

Status finalize_fusion(const cudnnFusedOpsConstParamStruct &pack, const PackReader &read, FusedOpsProblem *p) {
    const bool training = pack.ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING;
    if (pack.batch_norm_mode != CUDNN_BATCHNORM_SPATIAL && pack.batch_norm_mode != CUDNN_BATCHNORM_SPATIAL_PERSISTENT) {
        const char *name = enum_name(pack.batch_norm_mode);
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "CUDNN_PARAM_BN_MODE is %s; %s finalizes per-channel statistics: CUDNN_BATCHNORM_SPATIAL or "
                    "CUDNN_BATCHNORM_SPATIAL_PERSISTENT",
                    name ? name : "?", read.ops());
    }
    p->bn_mode = pack.batch_norm_mode;
    const cudnnTensorStruct *param = read.tensor(CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC);
    const cudnnTensorStruct *eq = read.tensor(CUDNN_PARAM_BN_EQSCALEBIAS_DESC);
    LIBREDNN_CHECK(read.require_set(param != nullptr, CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC,
                                    "the scale, bias, means and variances"));
    LIBREDNN_CHECK(
        read.require_set(eq != nullptr, CUDNN_PARAM_BN_EQSCALEBIAS_DESC, "the eqScale and eqBias it writes"));
    p->bn_parameters = geometry_of(*param);
    p->eq_scale_bias = geometry_of(*eq);
    const int64_t channels = p->bn_parameters.nb_dims >= 2 ? p->bn_parameters.dims[1] : 0;
    LIBREDNN_CHECK(check_per_channel(p->bn_parameters, channels, 0, CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC, read.ops()));
    LIBREDNN_CHECK(check_per_channel(p->eq_scale_bias, channels, p->bn_parameters.nb_dims,
                                     CUDNN_PARAM_BN_EQSCALEBIAS_DESC, read.ops()));
    LIBREDNN_CHECK(check_type(p->bn_parameters.dtype, {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE},
                              CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC, read.ops(), "float or double"));
    LIBREDNN_CHECK(check_type(p->eq_scale_bias.dtype,
                              {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16, CUDNN_DATA_DOUBLE},
                              CUDNN_PARAM_BN_EQSCALEBIAS_DESC, read.ops(), "float, half, bfloat16 or double"));
    const cudnnDataType_t pt = p->bn_parameters.dtype;
    if (training) {
        const cudnnTensorStruct *stats = read.tensor(CUDNN_PARAM_YSTATS_DESC);
        LIBREDNN_CHECK(read.require_set(stats != nullptr, CUDNN_PARAM_YSTATS_DESC, "the ySum and ySqSum it reads"));
        p->stats = geometry_of(*stats);
        LIBREDNN_CHECK(
            check_per_channel(p->stats, channels, p->bn_parameters.nb_dims, CUDNN_PARAM_YSTATS_DESC, read.ops()));
        LIBREDNN_CHECK(check_type(p->stats.dtype, {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE}, CUDNN_PARAM_YSTATS_DESC,
                                  read.ops(), "float or double"));
        p->has_sum = p->has_square_sum = true;
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_YSUM_PLACEHOLDER, CUDNN_PTR_YSUM, p->stats.dtype));
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_YSQSUM_PLACEHOLDER, CUDNN_PTR_YSQSUM, p->stats.dtype));
    }
    LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_BN_SCALE_PLACEHOLDER, CUDNN_PTR_BN_SCALE, pt));
    LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_BN_BIAS_PLACEHOLDER, CUDNN_PTR_BN_BIAS, pt));
    LIBREDNN_CHECK(
        read.require_pointer(CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER, CUDNN_PTR_BN_EQSCALE, p->eq_scale_bias.dtype));
    LIBREDNN_CHECK(
        read.require_pointer(CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER, CUDNN_PTR_BN_EQBIAS, p->eq_scale_bias.dtype));
    if (training) {
        p->has_saved_mean = read.optional_pointer(CUDNN_PARAM_BN_SAVED_MEAN_PLACEHOLDER, CUDNN_PTR_BN_SAVED_MEAN, pt);
        p->has_saved_invstd =
            read.optional_pointer(CUDNN_PARAM_BN_SAVED_INVSTD_PLACEHOLDER, CUDNN_PTR_BN_SAVED_INVSTD, pt);
        p->has_running_mean =
            read.optional_pointer(CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, CUDNN_PTR_BN_RUNNING_MEAN, pt);
        p->has_running_var =
            read.optional_pointer(CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, CUDNN_PTR_BN_RUNNING_VAR, pt);
    } else {
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, CUDNN_PTR_BN_RUNNING_MEAN, pt));
        LIBREDNN_CHECK(read.require_pointer(CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, CUDNN_PTR_BN_RUNNING_VAR, pt));
        p->has_running_mean = p->has_running_var = true;
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

Status fused_ops_problem_of(const cudnnFusedOpsConstParamStruct &pack, FusedOpsProblem *problem,
                            std::vector<FusedOpsPointer> *pointers) {
    FusedOpsProblem p;
    p.ops = pack.ops;
    std::vector<FusedOpsPointer> used;
    PackReader read(pack, &used);
    switch (pack.ops) {
        case CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS:
        case CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD: LIBREDNN_CHECK(convolution_fusion(pack, read, &p)); break;
        case CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING:
        case CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE: LIBREDNN_CHECK(finalize_fusion(pack, read, &p)); break;
        default:
            return fail(CUDNN_STATUS_NOT_SUPPORTED,
                        "%s is reserved for future use in cuDNN 8 (its header says so, and cuDNN 8 does not "
                        "implement it); LibreDNN does not implement it either",
                        fused_ops_name(pack.ops));
    }
    *problem = p;
    *pointers = used;
    return CUDNN_STATUS_SUCCESS;
}

Status fused_ops_buffers_of(const cudnnFusedOpsPlanStruct &plan, const cudnnFusedOpsVariantParamStruct &pack,
                            FusedOpsBuffers *buffers) {
    const char *ops = fused_ops_name(plan.ops);
    for (const FusedOpsPointer &entry : plan.pointers) {
        const void *pointer = pack.pointers[entry.label];
        if (pointer == nullptr)
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is NULL in the variant pack; the plan for %s uses it",
                        variant_name(entry.label), ops);
        const size_t alignment = entry.placeholder == CUDNN_PTR_16B_ALIGNED ? 16 : entry.element_bytes;
        if (reinterpret_cast<uintptr_t>(pointer) % alignment != 0)
            return fail(CUDNN_STATUS_BAD_PARAM, "%s is %p, not aligned to %zu bytes as its placeholder (%s) promised",
                        variant_name(entry.label), pointer, alignment, enum_name(entry.placeholder));
    }
    FusedOpsBuffers b;
    b.x = pack.pointers[CUDNN_PTR_XDATA];
    b.w = pack.pointers[CUDNN_PTR_WDATA];
    b.y = pack.pointers[CUDNN_PTR_YDATA];
    b.dy = pack.pointers[CUDNN_PTR_DYDATA];
    b.dw = pack.pointers[CUDNN_PTR_DWDATA];
    b.eq_scale = pack.pointers[CUDNN_PTR_BN_EQSCALE];
    b.eq_bias = pack.pointers[CUDNN_PTR_BN_EQBIAS];
    b.y_sum = pack.pointers[CUDNN_PTR_YSUM];
    b.y_square_sum = pack.pointers[CUDNN_PTR_YSQSUM];
    b.bn_scale = pack.pointers[CUDNN_PTR_BN_SCALE];
    b.bn_bias = pack.pointers[CUDNN_PTR_BN_BIAS];
    b.saved_mean = pack.pointers[CUDNN_PTR_BN_SAVED_MEAN];
    b.saved_invstd = pack.pointers[CUDNN_PTR_BN_SAVED_INVSTD];
    b.running_mean = pack.pointers[CUDNN_PTR_BN_RUNNING_MEAN];
    b.running_var = pack.pointers[CUDNN_PTR_BN_RUNNING_VAR];
    b.accumulation_count = pack.bn_accumulation_count;
    b.exp_avg_factor = pack.bn_exp_avg_factor;
    b.epsilon = pack.bn_epsilon;

    if (plan.workspace_size_in_bytes > 0) {
        if (pack.workspace_size_in_bytes < plan.workspace_size_in_bytes)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES is %zu, but the plan needs %zu bytes (what "
                        "cudnnMakeFusedOpsPlan reported)",
                        pack.workspace_size_in_bytes, plan.workspace_size_in_bytes);
        const void *workspace = pack.pointers[CUDNN_PTR_WORKSPACE];
        if (workspace == nullptr)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "CUDNN_PTR_WORKSPACE is NULL, but the plan needs %zu bytes of workspace",
                        plan.workspace_size_in_bytes);
        // The prologue stores x' there in x's type and the convolution's solver keeps typed data in the rest:
        // a workspace off alignment would be a misaligned access (a fault on the GPU).
        if (reinterpret_cast<uintptr_t>(workspace) % kWorkspaceAlignment != 0)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "CUDNN_PTR_WORKSPACE is %p, not aligned to %zu bytes; the plan keeps typed data in its "
                        "workspace (cudaMalloc gives 256-byte aligned memory)",
                        workspace, kWorkspaceAlignment);
    }
    if (!plan.problem.convolves()) {
        if (!(b.epsilon >= 0.0))
            return fail(CUDNN_STATUS_BAD_PARAM, "CUDNN_SCALAR_DOUBLE_BN_EPSILON is %g; it must be 0 or more",
                        b.epsilon);
    }
    if (plan.ops == CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING) {
        if (b.accumulation_count < 1)
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT is %lld; it is the number of values behind each "
                        "channel's ySum (N x H x W), at least 1",
                        static_cast<long long>(b.accumulation_count));
        if ((plan.problem.has_running_mean || plan.problem.has_running_var) &&
            !(b.exp_avg_factor >= 0.0 && b.exp_avg_factor <= 1.0))
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR is %g; the running averages need a factor in [0, 1]",
                        b.exp_avg_factor);
    }
    *buffers = b;
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::api
