// Rules of the multi-head attention descriptor's setter, its derived vector lengths and its one-line
// description.
#include "descriptors/attention.hpp"

#include "core/data_type.hpp"
#include "core/enum_names.gen.hpp"
#include "descriptors/describe.hpp"

#include <cstdio>

namespace librednn {

namespace {

constexpr unsigned kKnownAttnModeFlags = CUDNN_ATTN_QUERYMAP_ONE_TO_ONE | CUDNN_ATTN_ENABLE_PROJ_BIASES;

bool is_attention_type(cudnnDataType_t type) {
    return type == CUDNN_DATA_HALF || type == CUDNN_DATA_FLOAT || type == CUDNN_DATA_DOUBLE;
}

Status check_type(cudnnDataType_t type, const char *name) {
    if (!is_attention_type(type)) {
        const char *type_name = enum_name(type);
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s is %s (%d), must be CUDNN_DATA_HALF, CUDNN_DATA_FLOAT or CUDNN_DATA_DOUBLE", name,
                    type_name ? type_name : "not a cudnnDataType_t", static_cast<int>(type));
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_positive(int value, const char *name) {
    if (value <= 0) return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be positive", name, value);
    return CUDNN_STATUS_SUCCESS;
}

Status check_projection(int value, const char *name) {
    if (value < 0) return fail(CUDNN_STATUS_BAD_PARAM, "%s is %d, must be 0 (no projection) or positive", name, value);
    return CUDNN_STATUS_SUCCESS;
}

int projected(int size, int proj_size) { return proj_size > 0 ? proj_size : size; }

// "default_math" for CUDNN_DEFAULT_MATH.
std::string math_short_name(cudnnMathType_t type) {
    const char *name = enum_name(type);
    if (name == nullptr) return "?";
    std::string text = name + 6;  // after "CUDNN_"
    for (char &c : text) c = static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return text;
}

}  // namespace

Status set_attention(cudnnAttnStruct *attn, const AttnSettings &s) {
    if ((s.attn_mode & ~kKnownAttnModeFlags) != 0)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "attnMode is 0x%x; only CUDNN_ATTN_QUERYMAP_ONE_TO_ONE (0x%x) and CUDNN_ATTN_ENABLE_PROJ_BIASES "
                    "(0x%x) are defined flags",
                    s.attn_mode, CUDNN_ATTN_QUERYMAP_ONE_TO_ONE, CUDNN_ATTN_ENABLE_PROJ_BIASES);
    LIBREDNN_CHECK(check_positive(s.n_heads, "nHeads"));
    if (!(s.sm_scaler >= 0.0))  // also rejects NaN
        return fail(CUDNN_STATUS_BAD_PARAM, "smScaler is %g, must not be negative", s.sm_scaler);
    LIBREDNN_CHECK(check_type(s.data_type, "dataType"));
    LIBREDNN_CHECK(check_type(s.compute_prec, "computePrec"));
    if (enum_name(s.math_type) == nullptr)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "mathType is %d, not a cudnnMathType_t (CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, "
                    "CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION or CUDNN_FMA_MATH)",
                    static_cast<int>(s.math_type));
    LIBREDNN_CHECK(check_positive(s.q_size, "qSize"));
    LIBREDNN_CHECK(check_positive(s.k_size, "kSize"));
    LIBREDNN_CHECK(check_positive(s.v_size, "vSize"));
    LIBREDNN_CHECK(check_projection(s.q_proj_size, "qProjSize"));
    LIBREDNN_CHECK(check_projection(s.k_proj_size, "kProjSize"));
    LIBREDNN_CHECK(check_projection(s.v_proj_size, "vProjSize"));
    LIBREDNN_CHECK(check_projection(s.o_proj_size, "oProjSize"));
    LIBREDNN_CHECK(check_positive(s.qo_max_seq_length, "qoMaxSeqLength"));
    LIBREDNN_CHECK(check_positive(s.kv_max_seq_length, "kvMaxSeqLength"));
    LIBREDNN_CHECK(check_positive(s.max_batch_size, "maxBatchSize"));
    LIBREDNN_CHECK(check_positive(s.max_beam_size, "maxBeamSize"));
    const int q_length = projected(s.q_size, s.q_proj_size);
    const int k_length = projected(s.k_size, s.k_proj_size);
    if (q_length != k_length)
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "queries are %d long after projection (qSize %d, qProjSize %d) but keys are %d (kSize %d, "
                    "kProjSize %d); Q and K must have the same length after projection",
                    q_length, s.q_size, s.q_proj_size, k_length, s.k_size, s.k_proj_size);
    if (s.compute_prec != s.data_type)
        return fail(CUDNN_STATUS_NOT_SUPPORTED,
                    "computePrec is %s but dataType is %s; attention computes in its data type only",
                    enum_name(s.compute_prec), enum_name(s.data_type));

    attn->attn_mode = s.attn_mode;
    attn->n_heads = s.n_heads;
    attn->sm_scaler = s.sm_scaler;
    attn->data_type = s.data_type;
    attn->compute_prec = s.compute_prec;
    attn->math_type = s.math_type;
    attn->attn_dropout = s.attn_dropout;
    attn->post_dropout = s.post_dropout;
    attn->q_size = s.q_size;
    attn->k_size = s.k_size;
    attn->v_size = s.v_size;
    attn->q_proj_size = s.q_proj_size;
    attn->k_proj_size = s.k_proj_size;
    attn->v_proj_size = s.v_proj_size;
    attn->o_proj_size = s.o_proj_size;
    attn->qo_max_seq_length = s.qo_max_seq_length;
    attn->kv_max_seq_length = s.kv_max_seq_length;
    attn->max_batch_size = s.max_batch_size;
    attn->max_beam_size = s.max_beam_size;
    attn->is_set = true;
    return CUDNN_STATUS_SUCCESS;
}

Status require_attention_set(const cudnnAttnStruct &attn, const char *name) {
    if (!attn.is_set)
        return fail(CUDNN_STATUS_BAD_PARAM, "%s has not been set (call cudnnSetAttnDescriptor first)", name);
    return CUDNN_STATUS_SUCCESS;
}

int attention_q_length(const cudnnAttnStruct &attn) { return projected(attn.q_size, attn.q_proj_size); }
int attention_k_length(const cudnnAttnStruct &attn) { return projected(attn.k_size, attn.k_proj_size); }
int attention_v_length(const cudnnAttnStruct &attn) { return projected(attn.v_size, attn.v_proj_size); }

int attention_o_length(const cudnnAttnStruct &attn) {
    return attn.o_proj_size > 0 ? attn.o_proj_size : attn.n_heads * attention_v_length(attn);
}

std::string attention_to_string(const cudnnAttnStruct &attn) {
    if (!attn.is_set) return "unset";
    char text[512];
    std::snprintf(text, sizeof text,
                  "%s/%s heads %d scaler %g q %d k %d v %d proj %d/%d/%d/%d seq %d/%d batch %d beam %d %s %s %s",
                  data_type_short_name(attn.data_type), data_type_short_name(attn.compute_prec), attn.n_heads,
                  attn.sm_scaler, attn.q_size, attn.k_size, attn.v_size, attn.q_proj_size, attn.k_proj_size,
                  attn.v_proj_size, attn.o_proj_size, attn.qo_max_seq_length, attn.kv_max_seq_length,
                  attn.max_batch_size, attn.max_beam_size,
                  (attn.attn_mode & CUDNN_ATTN_QUERYMAP_ONE_TO_ONE) ? "one_to_one" : "all_to_one",
                  (attn.attn_mode & CUDNN_ATTN_ENABLE_PROJ_BIASES) ? "proj_bias" : "no_bias",
                  math_short_name(attn.math_type).c_str());
    std::string result = text;
    if (attn.attn_dropout != nullptr) result += " attn_dropout";
    if (attn.post_dropout != nullptr) result += " post_dropout";
    return result;
}

namespace api {

std::string describe(const cudnnAttnStruct *desc) {
    if (desc == nullptr) return "NULL";
    return "AttnDescriptor{" + attention_to_string(*desc) + "}";
}

}  // namespace api

}  // namespace librednn
