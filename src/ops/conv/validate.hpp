// cuDNN 8's rules for convolution problems, in one place: the shapes agree, the data types form one of
// cuDNN's configurations for the direction, the layouts suit the types. Each rejection returns
// cuDNN's status and records one sentence naming the argument (`fail`).
#pragma once

#include "core/status.hpp"
#include "ops/conv/problem.hpp"

namespace librednn {

// The data-type configurations of cuDNN 8's convolution tables.
enum class ConvTypeConfig {
    true_half,        // half data, half compute (LibreDNN accumulates in float: never less accurate)
    pseudo_half,      // half data, float compute
    pseudo_bfloat16,  // bfloat16 data, float compute
    float_config,     // float
    double_config,    // double
    int8,             // int8 x and w (uint8 x), int32 compute, int8 y
    int8_ext,         // the same with a float y
    int8x4,           // INT8x4 (UINT8x4 x) in NCHW_VECT_C, int8x4 y
    int8x4_ext,       // the same with a float y
    int8x32,          // INT8x32 in NCHW_VECT_C
};

const char *conv_type_config_name(ConvTypeConfig config);

// The configuration of a problem's types; false (with a reason recorded) when they form none, with
// cuDNN's status in *status: BAD_PARAM when the tensors' types disagree, NOT_SUPPORTED when they agree
// on a type or compute type no configuration of this direction has.
bool conv_type_config(const ConvProblem &problem, ConvTypeConfig *config, Status *status);

// Every rule of the problem (names are the C API's: xDesc, wDesc, yDesc for forward; dyDesc, dxDesc,
// dwDesc for the backward directions).
Status validate_convolution(const ConvProblem &problem);

// cudnnIm2Col's rules beyond the descriptors' agreement (which its entry point checks): x of one scalar
// per element (no vectorised int8), of 1, 2, 4 or 8 bytes.
Status validate_im2col(const ConvProblem &problem);

// True when the configuration is one of the int8 ones (integer accumulation).
bool is_integer_config(ConvTypeConfig config);

// cuDNN 8's algorithms for the int8 configurations (forward): INT8, INT8_EXT, INT8x4 and INT8x4_EXT under
// IMPLICIT_GEMM and IMPLICIT_PRECOMP_GEMM, INT8x32 under IMPLICIT_PRECOMP_GEMM only. Why `algorithm` (a
// forward algorithm) does not take the problem's int8 configuration, or nullptr when it does or the problem
// is not int8. Every backend's solvers of these algorithms ask it, so that both refuse the same calls.
const char *int8_algorithm_refusal(const ConvProblem &problem, int algorithm);

}  // namespace librednn
