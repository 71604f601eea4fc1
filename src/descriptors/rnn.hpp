// The RNN descriptor (cudnnRNNDescriptor_t): cell, algorithm, sizes, types and options, with cuDNN's
// rules for the v8 setter, the legacy v6 setter and the single-property setters; and the legacy persistent
// plan (cudnnPersistentRNNPlan_t) that can be attached to it.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstdint>
#include <string>

struct cudnnRNNStruct {
    bool is_set = false;     // false until cudnnSetRNNDescriptor_v8 or cudnnSetRNNDescriptor_v6 succeeds
    bool set_by_v6 = false;  // the legacy setter: data type and input size come from the tensors at compute time
    cudnnRNNAlgo_t algo = CUDNN_RNN_ALGO_STANDARD;
    cudnnRNNMode_t cell_mode = CUDNN_RNN_RELU;
    cudnnDirectionMode_t dir_mode = CUDNN_UNIDIRECTIONAL;
    cudnnRNNInputMode_t input_mode = CUDNN_LINEAR_INPUT;
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;  // for a v6 descriptor: mathPrec, a placeholder
    cudnnDataType_t math_prec = CUDNN_DATA_FLOAT;
    int32_t input_size = 0;  // 0 for a v6 descriptor with CUDNN_LINEAR_INPUT (taken from xDesc later)
    int32_t hidden_size = 0;
    int32_t proj_size = 0;  // == hidden_size when the recurrent projection is off
    int32_t num_layers = 0;
    cudnnDropoutDescriptor_t dropout = nullptr;  // the caller's object, kept opaque: never dereferenced here
    // Settable on their own too; a new descriptor holds these defaults, and cudnnSetRNNDescriptor_v6
    // restores the first three (its callers set them afterwards, as cuDNN documents).
    cudnnRNNBiasMode_t bias_mode = CUDNN_RNN_DOUBLE_BIAS;
    cudnnMathType_t math_type = CUDNN_DEFAULT_MATH;
    uint32_t aux_flags = CUDNN_RNN_PADDED_IO_DISABLED;  // also the padding mode of the legacy API
    // LSTM cell clipping: kept across the descriptor setters.
    cudnnRNNClipMode_t clip_mode = CUDNN_RNN_CLIP_NONE;
    cudnnNanPropagation_t clip_nan_opt = CUDNN_NOT_PROPAGATE_NAN;
    double lclip = 0.0;
    double rclip = 0.0;
    // What cudnnSetPersistentRNNPlan attached, copied out of the plan (which the caller may destroy first).
    // Only traces read it: the persistent kernels are chosen per call from the problem (docs/RNN.md).
    bool has_persistent_plan = false;
    int32_t plan_minibatch = 0;
    cudnnDataType_t plan_data_type = CUDNN_DATA_FLOAT;
};

// A persistent-RNN plan: the mini-batch and data type cudnnCreatePersistentRNNPlan was given. It plans
// nothing; the magic tells a plan of ours from any other pointer a caller passes.
struct cudnnPersistentRNNPlan {
    static constexpr uint32_t kMagic = 0x504E524Cu;  // "LRNP" in memory on a little-endian host
    uint32_t magic = kMagic;
    int32_t minibatch = 0;
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
};

namespace librednn {

// The values of cudnnSetRNNDescriptor_v8, named as its parameters.
struct RNNSettingsV8 {
    cudnnRNNAlgo_t algo;
    cudnnRNNMode_t cell_mode;
    cudnnRNNBiasMode_t bias_mode;
    cudnnDirectionMode_t dir_mode;
    cudnnRNNInputMode_t input_mode;
    cudnnDataType_t data_type;
    cudnnDataType_t math_prec;
    cudnnMathType_t math_type;
    int32_t input_size;
    int32_t hidden_size;
    int32_t proj_size;
    int32_t num_layers;
    cudnnDropoutDescriptor_t dropout;
    uint32_t aux_flags;
};

// The values of cudnnSetRNNDescriptor_v6, named as its parameters.
struct RNNSettingsV6 {
    int hidden_size;
    int num_layers;
    cudnnDropoutDescriptor_t dropout;
    cudnnRNNInputMode_t input_mode;
    cudnnDirectionMode_t direction;
    cudnnRNNMode_t cell_mode;
    cudnnRNNAlgo_t algo;
    cudnnDataType_t math_prec;
};

// Check cuDNN's rules and, when they hold, write the settings into `rnn` (the clip settings are kept).
// Single invalid values are CUDNN_STATUS_BAD_PARAM; valid values that do not go together (a projection
// on a GRU, float data with half math) are CUDNN_STATUS_NOT_SUPPORTED.
Status set_rnn_v8(cudnnRNNStruct *rnn, const RNNSettingsV8 &settings);
Status set_rnn_v6(cudnnRNNStruct *rnn, const RNNSettingsV6 &settings);

// cuDNN's table for mathPrec: half data computes in half or float, float in float, double in double.
bool rnn_math_precision_fits(cudnnDataType_t data_type, cudnnDataType_t math_prec);

// cudnnSetRNNAlgorithmDescriptor: the descriptor's algorithm, with the rules the v8 setter applies to it
// (the projection and the bias modes other than DOUBLE_BIAS need CUDNN_RNN_ALGO_STANDARD).
Status set_rnn_algorithm(cudnnRNNStruct *rnn, cudnnRNNAlgo_t algo);

// The single-property setters (cudnnSetRNNMatrixMathType, cudnnSetRNNBiasMode, cudnnSetRNNPaddingMode,
// cudnnRNNSetClip[_v8], cudnnSetRNNProjectionLayers): check, then set.
Status set_rnn_math_type(cudnnRNNStruct *rnn, cudnnMathType_t math_type);
Status set_rnn_bias_mode(cudnnRNNStruct *rnn, cudnnRNNBiasMode_t bias_mode);
Status set_rnn_padding_mode(cudnnRNNStruct *rnn, unsigned padding_mode);
Status set_rnn_clip(cudnnRNNStruct *rnn, cudnnRNNClipMode_t clip_mode, cudnnNanPropagation_t clip_nan_opt, double lclip,
                    double rclip);
Status set_rnn_projection_layers(cudnnRNNStruct *rnn, int rec_proj_size, int out_proj_size);

// cudnnSetPersistentRNNPlan once the descriptor has been checked: `plan` must be one cudnnCreatePersistentRNNPlan
// made, of a data type rnn's mathPrec computes (CUDNN_STATUS_BAD_PARAM otherwise); its values are copied into
// `rnn`.
Status attach_persistent_rnn_plan(cudnnRNNStruct *rnn, const cudnnPersistentRNNPlan *plan);

// True when `plan` carries our magic: cudnnCreatePersistentRNNPlan made it. Any other pointer must still point
// at sizeof(cudnnPersistentRNNPlan) readable bytes; a plan already destroyed is freed memory, not recognised.
bool is_persistent_rnn_plan(const cudnnPersistentRNNPlan *plan);

// CUDNN_STATUS_BAD_PARAM naming `name` when `rnn` has not been set yet.
Status require_rnn_set(const cudnnRNNStruct &rnn, const char *name);

// True when the LSTM recurrent projection is on (projSize < hiddenSize).
bool rnn_projection_enabled(const cudnnRNNStruct &rnn);

// "lstm standard bidirectional linear_input float/float in 32 hidden 64 proj 64 layers 2 dropout NULL
// double_bias default_math padded_io", for log lines and problem strings.
std::string rnn_to_string(const cudnnRNNStruct &rnn);

}  // namespace librednn
