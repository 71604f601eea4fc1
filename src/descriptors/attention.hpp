// The multi-head attention descriptor (cudnnAttnDescriptor_t): mode flags, heads, softmax scaler, types,
// dropout descriptors, vector and projection sizes and the largest problem it will see, with cuDNN's rules.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

struct cudnnAttnStruct {
    bool is_set = false;  // false until cudnnSetAttnDescriptor succeeds
    unsigned attn_mode = CUDNN_ATTN_QUERYMAP_ALL_TO_ONE | CUDNN_ATTN_DISABLE_PROJ_BIASES;
    int n_heads = 0;
    double sm_scaler = 0.0;
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    cudnnDataType_t compute_prec = CUDNN_DATA_FLOAT;
    cudnnMathType_t math_type = CUDNN_DEFAULT_MATH;
    // The caller's objects, kept opaque: never dereferenced here.
    cudnnDropoutDescriptor_t attn_dropout = nullptr;
    cudnnDropoutDescriptor_t post_dropout = nullptr;
    int q_size = 0, k_size = 0, v_size = 0;
    int q_proj_size = 0, k_proj_size = 0, v_proj_size = 0, o_proj_size = 0;  // 0: that projection is off
    int qo_max_seq_length = 0, kv_max_seq_length = 0;
    int max_batch_size = 0, max_beam_size = 0;
};

namespace librednn {

// The values of cudnnSetAttnDescriptor, named as its parameters.
struct AttnSettings {
    unsigned attn_mode;
    int n_heads;
    double sm_scaler;
    cudnnDataType_t data_type;
    cudnnDataType_t compute_prec;
    cudnnMathType_t math_type;
    cudnnDropoutDescriptor_t attn_dropout;
    cudnnDropoutDescriptor_t post_dropout;
    int q_size, k_size, v_size;
    int q_proj_size, k_proj_size, v_proj_size, o_proj_size;
    int qo_max_seq_length, kv_max_seq_length;
    int max_batch_size, max_beam_size;
};

// Checks cuDNN's rules and, when they hold, sets `attn`.
Status set_attention(cudnnAttnStruct *attn, const AttnSettings &settings);

// CUDNN_STATUS_BAD_PARAM naming `name` when `attn` has not been set yet.
Status require_attention_set(const cudnnAttnStruct &attn, const char *name);

// Vector lengths per head after the input projections (the unprojected size when a projection is off),
// and the length of an output vector (oProjSize, or nHeads x the V length when the output projection is off).
int attention_q_length(const cudnnAttnStruct &attn);
int attention_k_length(const cudnnAttnStruct &attn);
int attention_v_length(const cudnnAttnStruct &attn);
int attention_o_length(const cudnnAttnStruct &attn);

// "float/float heads 8 scaler 0.125 q 64 k 64 v 64 proj 16/16/16/64 seq 32/48 batch 4 beam 1
// all_to_one no_bias default_math", for log lines and problem strings.
std::string attention_to_string(const cudnnAttnStruct &attn);

}  // namespace librednn
