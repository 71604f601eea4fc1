// A fused-ops problem (cudnnMakeFusedOpsPlan / cudnnFusedOpsExecute) as a value, with its buffers and its
// problem string ("op=fused ops=conv_bnstats ..."; docs/FUSED_OPS.md has the semantics).
//
// The four fusions cuDNN 8 implements (the other three are "reserved for future use" in its header):
//   conv_bnstats   x' = act(x * eqScale[c] + eqBias[c]) rounded to x's type; y = conv(x', w);
//                  ySum[k] = sum of y[n, k, ...], ySqSum[k] = sum of y^2 (each optional)
//   wgrad          x' as above; dw = backward filter of (x', dy)
//   bn_finalize_training   from ySum, ySqSum over M values per channel: mean, biased variance,
//                  invstd = 1 / sqrt(var + eps); eqScale = scale * invstd, eqBias = bias - mean * eqScale;
//                  optionally saved mean / invstd and running mean / (unbiased) variance updated with
//                  the exponential average factor
//   bn_finalize_inference  eqScale = scale / sqrt(runningVar + eps), eqBias = bias - runningMean * eqScale
// Scale, bias and activation of the prologue are each optional (a PTR_NULL placeholder, or no activation
// descriptor); every per-channel tensor is [1, C, 1...].
#pragma once

#include "ops/conv/problem.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

struct FusedOpsProblem {
    cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;

    // conv_bnstats (forward) and wgrad (backward filter): the convolution, with x as the call gives it
    // (the prologue's output has x's geometry).
    ConvProblem conv;
    bool has_scale = false, has_bias = false;
    cudnnActivationMode_t activation = CUDNN_ACTIVATION_IDENTITY;  // RELU, or IDENTITY for none
    // conv ops: the prologue's eqScale / eqBias (inputs); finalize ops: eqScale / eqBias (outputs).
    TensorGeometry eq_scale_bias;
    // conv_bnstats: the sums it writes; bn_finalize_training: the sums it reads. [1, K, 1...].
    bool has_sum = false, has_square_sum = false;
    TensorGeometry stats;

    // The finalize ops: scale, bias, saved mean / invstd, running mean / variance share one geometry.
    cudnnBatchNormMode_t bn_mode = CUDNN_BATCHNORM_SPATIAL;
    TensorGeometry bn_parameters;
    bool has_saved_mean = false, has_saved_invstd = false;
    bool has_running_mean = false, has_running_var = false;

    bool convolves() const {
        return ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS || ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD;
    }
    // True when x goes through scale, bias or activation before the convolution.
    bool has_prologue() const { return has_scale || has_bias || activation != CUDNN_ACTIVATION_IDENTITY; }
    // The channels of the per-channel tensors: C of x (conv ops) or of the parameters (finalize ops).
    int64_t channels() const { return convolves() ? conv.x.dims[1] : eq_scale_bias.dims[1]; }

    bool operator==(const FusedOpsProblem &other) const;
};

// The variant pack's pointers and scalars, as one execution sees them. Pointers the problem does not
// use are ignored (they may be anything).
struct FusedOpsBuffers {
    const void *x = nullptr;
    const void *w = nullptr;
    void *y = nullptr;
    const void *dy = nullptr;
    void *dw = nullptr;
    void *eq_scale = nullptr;  // read by the conv ops, written by the finalize ops
    void *eq_bias = nullptr;
    void *y_sum = nullptr;  // written by conv_bnstats, read by bn_finalize_training
    void *y_square_sum = nullptr;
    const void *bn_scale = nullptr;
    const void *bn_bias = nullptr;
    void *saved_mean = nullptr;
    void *saved_invstd = nullptr;
    void *running_mean = nullptr;  // read by bn_finalize_inference; updated by bn_finalize_training
    void *running_var = nullptr;
    int64_t accumulation_count = 0;  // M: values per channel behind ySum and ySqSum
    double exp_avg_factor = 0.0;
    double epsilon = 0.0;
};

// "conv_bnstats", "wgrad", "bn_finalize_training", "bn_finalize_inference", "conv_scale_bias_add_act",
// "scale_bias_add_act_gen_bitmask", "dact_fork_dbn"; nullptr for other values.
const char *fused_ops_short_name(cudnnFusedOps_t ops);

ProblemString to_problem_string(const FusedOpsProblem &problem);

}  // namespace librednn
