// Rules of the RNN descriptor's setters and its one-line description.
#include "descriptors/rnn.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <cinttypes>
#include <cmath>
#include <cstdio>
#include <string>

namespace librednn {

namespace {

const char *name_or_unknown(const char *name) { return name ? name : "?"; }

bool is_rnn_algo(cudnnRNNAlgo_t algo) {
    // CUDNN_RNN_ALGO_COUNT is a count, not an algorithm.
    return enum_name(algo) != nullptr && algo != CUDNN_RNN_ALGO_COUNT;
}

bool is_rnn_data_type(cudnnDataType_t type) {
    return type == CUDNN_DATA_HALF || type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE;
}

Status check_algo(cudnnRNNAlgo_t algo) {
    if (!is_rnn_algo(algo))
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "algo is %d, not a cudnnRNNAlgo_t (CUDNN_RNN_ALGO_STANDARD, CUDNN_RNN_ALGO_PERSIST_STATIC, "
                    "CUDNN_RNN_ALGO_PERSIST_DYNAMIC or CUDNN_RNN_ALGO_PERSIST_STATIC_SMALL_H)",
                    static_cast<int>(algo));
    return CUDNN_STATUS_SUCCESS;
}

Status check_cell_mode(cudnnRNNMode_t mode, const char *name) {
    if (enum_name(mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %d, not a cudnnRNNMode_t (CUDNN_RNN_RELU, CUDNN_RNN_TANH, CUDNN_LSTM or CUDNN_GRU)", name,
                    static_cast<int>(mode));
    return CUDNN_STATUS_SUCCESS;
}

Status check_bias_mode(cudnnRNNBiasMode_t mode) {
    if (enum_name(mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "biasMode is %d, not a cudnnRNNBiasMode_t (CUDNN_RNN_NO_BIAS, CUDNN_RNN_SINGLE_INP_BIAS, "
                    "CUDNN_RNN_DOUBLE_BIAS or CUDNN_RNN_SINGLE_REC_BIAS)",
                    static_cast<int>(mode));
    return CUDNN_STATUS_SUCCESS;
}

Status check_direction(cudnnDirectionMode_t mode, const char *name) {
    if (enum_name(mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %d, not a cudnnDirectionMode_t (CUDNN_UNIDIRECTIONAL or CUDNN_BIDIRECTIONAL)", name,
                    static_cast<int>(mode));
    return CUDNN_STATUS_SUCCESS;
}

Status check_input_mode(cudnnRNNInputMode_t mode) {
    if (enum_name(mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "inputMode is %d, not a cudnnRNNInputMode_t (CUDNN_LINEAR_INPUT or CUDNN_SKIP_INPUT)",
                    static_cast<int>(mode));
    return CUDNN_STATUS_SUCCESS;
}

Status check_math_type(cudnnMathType_t type, const char *name) {
    if (enum_name(type) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %d, not a cudnnMathType_t (CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, "
                    "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION or CUDNN_FMA_MATH)",
                    name, static_cast<int>(type));
    return CUDNN_STATUS_SUCCESS;
}

Status check_positive(int value, const char *name) {
    if (value <= 0) return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be positive", name, value);
    return CUDNN_STATUS_SUCCESS;
}

// The recurrent projection exists for LSTM cells on CUDNN_RNN_ALGO_STANDARD only.
Status check_projection_allowed(cudnnRNNMode_t cell_mode, cudnnRNNAlgo_t algo, int proj_size, int hidden_size,
                                const char *name) {
    if (proj_size == hidden_size) return CUDNN_STATUS_SUCCESS;
    if (cell_mode != CUDNN_LSTM)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "%s is %d, smaller than hiddenSize %d, but the recurrent projection is only supported for "
                    "CUDNN_LSTM cells, not %s",
                    name, proj_size, hidden_size, name_or_unknown(enum_name(cell_mode)));
    if (algo != CUDNN_RNN_ALGO_STANDARD)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "%s is %d, smaller than hiddenSize %d, but the recurrent projection is only supported with "
                    "CUDNN_RNN_ALGO_STANDARD, not %s",
                    name, proj_size, hidden_size, name_or_unknown(enum_name(algo)));
    return CUDNN_STATUS_SUCCESS;
}

std::string lower_name(const char *name, const char *prefix) {
    std::string text = name_or_unknown(name);
    const std::string p = prefix;
    if (text.compare(0, p.size(), p) == 0) text = text.substr(p.size());
    for (char &c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return text;
}

}  // namespace

bool rnn_math_precision_fits(cudnnDataType_t data_type, cudnnDataType_t math_prec) {
    switch (data_type) {
        case CUDNN_DATA_HALF: return math_prec == CUDNN_DATA_HALF || math_prec == CUDNN_DATA_FLOAT;
        case CUDNN_DATA_FLOAT: return math_prec == CUDNN_DATA_FLOAT;
        case CUDNN_DATA_DOUBLE: return math_prec == CUDNN_DATA_DOUBLE;
        default: return false;
    }
}

Status set_rnn_v8(cudnnRNNStruct *rnn, const RNNSettingsV8 &s) {
    LIBREDNN_CHECK(check_algo(s.algo));
    LIBREDNN_CHECK(check_cell_mode(s.cell_mode, "cellMode"));
    LIBREDNN_CHECK(check_bias_mode(s.bias_mode));
    LIBREDNN_CHECK(check_direction(s.dir_mode, "dirMode"));
    LIBREDNN_CHECK(check_input_mode(s.input_mode));
    if (!is_valid_data_type(s.data_type))
        return fail(CUDNN_STATUS_BAD_PARAM, "dataType is %d, not a cudnnDataType_t", static_cast<int>(s.data_type));
    if (!is_valid_data_type(s.math_prec))
        return fail(CUDNN_STATUS_BAD_PARAM, "mathPrec is %d, not a cudnnDataType_t", static_cast<int>(s.math_prec));
    LIBREDNN_CHECK(check_math_type(s.math_type, "mathType"));
    LIBREDNN_CHECK(check_positive(s.input_size, "inputSize"));
    LIBREDNN_CHECK(check_positive(s.hidden_size, "hiddenSize"));
    if (s.proj_size <= 0 || s.proj_size > s.hidden_size)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "projSize is %d, must be between 1 and hiddenSize (%d); projSize == hiddenSize turns the "
                    "recurrent projection off",
                    s.proj_size, s.hidden_size);
    LIBREDNN_CHECK(check_positive(s.num_layers, "numLayers"));
    if ((s.aux_flags & ~static_cast<uint32_t>(CUDNN_RNN_PADDED_IO_ENABLED)) != 0)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "auxFlags is 0x%x, only the flag CUDNN_RNN_PADDED_IO_ENABLED (0x%x) is defined", s.aux_flags,
                    CUDNN_RNN_PADDED_IO_ENABLED);
    if (s.input_mode == CUDNN_SKIP_INPUT && s.input_size != s.hidden_size)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "inputSize is %d but inputMode is CUDNN_SKIP_INPUT, which needs inputSize == hiddenSize (%d)",
                    s.input_size, s.hidden_size);

    if (!is_rnn_data_type(s.data_type))
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "dataType is %s; RNNs support CUDNN_DATA_HALF, CUDNN_DATA_FLOAT and CUDNN_DATA_DOUBLE",
                    enum_name(s.data_type));
    if (!rnn_math_precision_fits(s.data_type, s.math_prec))
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "mathPrec is %s but dataType is %s; half data computes in CUDNN_DATA_HALF or CUDNN_DATA_FLOAT, "
                    "float data in CUDNN_DATA_FLOAT, double data in CUDNN_DATA_DOUBLE",
                    enum_name(s.math_prec), enum_name(s.data_type));
    LIBREDNN_CHECK(check_projection_allowed(s.cell_mode, s.algo, s.proj_size, s.hidden_size, "projSize"));

    rnn->algo = s.algo;
    rnn->cell_mode = s.cell_mode;
    rnn->bias_mode = s.bias_mode;
    rnn->dir_mode = s.dir_mode;
    rnn->input_mode = s.input_mode;
    rnn->data_type = s.data_type;
    rnn->math_prec = s.math_prec;
    rnn->math_type = s.math_type;
    rnn->input_size = s.input_size;
    rnn->hidden_size = s.hidden_size;
    rnn->proj_size = s.proj_size;
    rnn->num_layers = s.num_layers;
    rnn->dropout = s.dropout;
    rnn->aux_flags = s.aux_flags;
    rnn->set_by_v6 = false;
    rnn->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_v6(cudnnRNNStruct *rnn, const RNNSettingsV6 &s) {
    LIBREDNN_CHECK(check_positive(s.hidden_size, "hiddenSize"));
    LIBREDNN_CHECK(check_positive(s.num_layers, "numLayers"));
    LIBREDNN_CHECK(check_input_mode(s.input_mode));
    LIBREDNN_CHECK(check_direction(s.direction, "direction"));
    LIBREDNN_CHECK(check_cell_mode(s.cell_mode, "cellMode"));
    LIBREDNN_CHECK(check_algo(s.algo));
    if (!is_rnn_data_type(s.math_prec)) {
        const char *name = enum_name(s.math_prec);
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "mathPrec is %s (%d), must be CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE",
                    name_or_unknown(name), static_cast<int>(s.math_prec));
    }

    // The same state as cudnnSetRNNDescriptor_v8, with cuDNN's defaults for what v6 does not take.
    rnn->algo = s.algo;
    rnn->cell_mode = s.cell_mode;
    rnn->dir_mode = s.direction;
    rnn->input_mode = s.input_mode;
    rnn->data_type = s.math_prec;
    rnn->math_prec = s.math_prec;
    rnn->input_size = s.input_mode == CUDNN_SKIP_INPUT ? s.hidden_size : 0;
    rnn->hidden_size = s.hidden_size;
    rnn->proj_size = s.hidden_size;
    rnn->num_layers = s.num_layers;
    rnn->dropout = s.dropout;
    rnn->bias_mode = CUDNN_RNN_DOUBLE_BIAS;
    rnn->math_type = CUDNN_DEFAULT_MATH;
    rnn->aux_flags = CUDNN_RNN_PADDED_IO_DISABLED;
    rnn->set_by_v6 = true;
    rnn->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_math_type(cudnnRNNStruct *rnn, cudnnMathType_t math_type) {
    LIBREDNN_CHECK(check_math_type(math_type, "mType"));
    rnn->math_type = math_type;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_bias_mode(cudnnRNNStruct *rnn, cudnnRNNBiasMode_t bias_mode) {
    LIBREDNN_CHECK(check_bias_mode(bias_mode));
    if (bias_mode != CUDNN_RNN_DOUBLE_BIAS && rnn->algo != CUDNN_RNN_ALGO_STANDARD)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "biasMode is %s but the descriptor's algo is %s; bias modes other than CUDNN_RNN_DOUBLE_BIAS "
                    "need CUDNN_RNN_ALGO_STANDARD",
                    enum_name(bias_mode), name_or_unknown(enum_name(rnn->algo)));
    rnn->bias_mode = bias_mode;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_algorithm(cudnnRNNStruct *rnn, cudnnRNNAlgo_t algo) {
    LIBREDNN_CHECK(require_rnn_set(*rnn, "rnnDesc"));
    LIBREDNN_CHECK(check_algo(algo));
    LIBREDNN_CHECK(check_projection_allowed(rnn->cell_mode, algo, rnn->proj_size, rnn->hidden_size, "projSize"));
    if (rnn->bias_mode != CUDNN_RNN_DOUBLE_BIAS && algo != CUDNN_RNN_ALGO_STANDARD)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "the algorithm is %s but the descriptor's biasMode is %s; bias modes other than "
                    "CUDNN_RNN_DOUBLE_BIAS need CUDNN_RNN_ALGO_STANDARD",
                    enum_name(algo), name_or_unknown(enum_name(rnn->bias_mode)));
    rnn->algo = algo;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_padding_mode(cudnnRNNStruct *rnn, unsigned padding_mode) {
    if (padding_mode != CUDNN_RNN_PADDED_IO_DISABLED && padding_mode != CUDNN_RNN_PADDED_IO_ENABLED)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "paddingMode is %u, must be CUDNN_RNN_PADDED_IO_DISABLED (0) or CUDNN_RNN_PADDED_IO_ENABLED (1)",
                    padding_mode);
    rnn->aux_flags = (rnn->aux_flags & ~static_cast<uint32_t>(CUDNN_RNN_PADDED_IO_ENABLED)) | padding_mode;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_clip(cudnnRNNStruct *rnn, cudnnRNNClipMode_t clip_mode, cudnnNanPropagation_t clip_nan_opt, double lclip,
                    double rclip) {
    if (enum_name(clip_mode) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "clipMode is %d, not a cudnnRNNClipMode_t (CUDNN_RNN_CLIP_NONE or CUDNN_RNN_CLIP_MINMAX)",
                    static_cast<int>(clip_mode));
    if (enum_name(clip_nan_opt) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "clipNanOpt is %d, not a cudnnNanPropagation_t (CUDNN_NOT_PROPAGATE_NAN or CUDNN_PROPAGATE_NAN)",
                    static_cast<int>(clip_nan_opt));
    if (std::isnan(lclip) || std::isnan(rclip))
        return fail(CUDNN_STATUS_BAD_PARAM, "lclip is %g and rclip is %g; neither may be NaN", lclip, rclip);
    if (lclip > rclip)
        return fail(CUDNN_STATUS_BAD_PARAM, "lclip is %g, greater than rclip %g; the range must have lclip <= rclip",
                    lclip, rclip);
    rnn->clip_mode = clip_mode;
    rnn->clip_nan_opt = clip_nan_opt;
    rnn->lclip = lclip;
    rnn->rclip = rclip;
    return CUDNN_STATUS_SUCCESS;
}

Status set_rnn_projection_layers(cudnnRNNStruct *rnn, int rec_proj_size, int out_proj_size) {
    LIBREDNN_CHECK(require_rnn_set(*rnn, "rnnDesc"));
    if (rec_proj_size <= 0 || rec_proj_size > rnn->hidden_size)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "recProjSize is %d, must be between 1 and the descriptor's hiddenSize (%d); recProjSize == "
                    "hiddenSize turns the recurrent projection off",
                    rec_proj_size, rnn->hidden_size);
    if (out_proj_size < 0)
        return fail(CUDNN_STATUS_BAD_PARAM, "outProjSize is %d, must not be negative", out_proj_size);
    if (out_proj_size != 0)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "outProjSize is %d; the output projection is not supported, outProjSize must be 0", out_proj_size);
    LIBREDNN_CHECK(check_projection_allowed(rnn->cell_mode, rnn->algo, rec_proj_size, rnn->hidden_size, "recProjSize"));
    rnn->proj_size = rec_proj_size;
    return CUDNN_STATUS_SUCCESS;
}

bool is_persistent_rnn_plan(const cudnnPersistentRNNPlan *plan) {
    return plan != nullptr && plan->magic == cudnnPersistentRNNPlan::kMagic;
}

Status attach_persistent_rnn_plan(cudnnRNNStruct *rnn, const cudnnPersistentRNNPlan *plan) {
    if (!is_persistent_rnn_plan(plan))
        return fail(CUDNN_STATUS_BAD_PARAM, "plan was not made by cudnnCreatePersistentRNNPlan");
    if (!rnn_math_precision_fits(plan->data_type, rnn->math_prec))
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "plan was made for %s data, which rnnDesc's mathPrec %s cannot compute; half data computes in "
                    "CUDNN_DATA_HALF or CUDNN_DATA_FLOAT, float data in CUDNN_DATA_FLOAT, double data in "
                    "CUDNN_DATA_DOUBLE",
                    name_or_unknown(enum_name(plan->data_type)), name_or_unknown(enum_name(rnn->math_prec)));
    rnn->has_persistent_plan = true;
    rnn->plan_minibatch = plan->minibatch;
    rnn->plan_data_type = plan->data_type;
    return CUDNN_STATUS_SUCCESS;
}

Status require_rnn_set(const cudnnRNNStruct &rnn, const char *name) {
    if (!rnn.is_set)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s has not been set (call cudnnSetRNNDescriptor_v8 or cudnnSetRNNDescriptor_v6 first)", name);
    return CUDNN_STATUS_SUCCESS;
}

bool rnn_projection_enabled(const cudnnRNNStruct &rnn) { return rnn.proj_size < rnn.hidden_size; }

std::string rnn_to_string(const cudnnRNNStruct &rnn) {
    std::string text;
    if (rnn.is_set) {
        text = lower_name(enum_name(rnn.cell_mode), "CUDNN_") + " " +
               lower_name(enum_name(rnn.algo), "CUDNN_RNN_ALGO_") + " " +
               lower_name(enum_name(rnn.dir_mode), "CUDNN_") + " " + lower_name(enum_name(rnn.input_mode), "CUDNN_") +
               " " + data_type_short_name(rnn.data_type) + "/" + data_type_short_name(rnn.math_prec) + " in " +
               std::to_string(rnn.input_size) + " hidden " + std::to_string(rnn.hidden_size) + " proj " +
               std::to_string(rnn.proj_size) + " layers " + std::to_string(rnn.num_layers);
        char dropout[48];
        std::snprintf(dropout, sizeof dropout, " dropout 0x%" PRIxPTR, reinterpret_cast<uintptr_t>(rnn.dropout));
        text += rnn.dropout ? dropout : " dropout NULL";
        if (rnn.set_by_v6) text += " (v6)";
        text += " ";
    } else {
        text = "unset ";
    }
    text += lower_name(enum_name(rnn.bias_mode), "CUDNN_RNN_") + " " + lower_name(enum_name(rnn.math_type), "CUDNN_");
    if (rnn.aux_flags & CUDNN_RNN_PADDED_IO_ENABLED) text += " padded_io";
    if (rnn.clip_mode == CUDNN_RNN_CLIP_MINMAX) {
        char clip[96];
        std::snprintf(clip, sizeof clip, " clip [%g, %g]%s", rnn.lclip, rnn.rclip,
                      rnn.clip_nan_opt == CUDNN_PROPAGATE_NAN ? " propagate_nan" : "");
        text += clip;
    }
    if (rnn.has_persistent_plan) {
        text += " plan minibatch " + std::to_string(rnn.plan_minibatch);
        text += std::string(" ") + data_type_short_name(rnn.plan_data_type);
    }
    return text;
}

namespace api {

std::string describe(const cudnnRNNStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "RNNDescriptor{" + rnn_to_string(*desc) + "}";
}

std::string describe(const cudnnPersistentRNNPlan *plan) {
    if (plan == nullptr) return "NULL";
    if (!is_persistent_rnn_plan(plan)) return "PersistentRNNPlan{not one of LibreDNN's}";
    return "PersistentRNNPlan{minibatch " + std::to_string(plan->minibatch) + " " +
           data_type_short_name(plan->data_type) + "}";
}

}  // namespace api

}  // namespace librednn
