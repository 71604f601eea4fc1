// What a batch-norm training or backward kernel writes once it knows a channel's statistics: the running
// averages and saved statistics (forward), dscale and dbias (backward), each where the call asks for it
// and blended as cuDNN's factors say. Shared by the packed kernels' merge (training_packed.cu) and the
// channel clusters (training_cluster.cu).
#pragma once

#include "ops/batch_norm/problem.hpp"

#include <cstdint>

namespace librednn::cuda {

struct ChannelResults {
    int running, saved;  // forward: the running and saved pairs given
    float epsilon;
    double factor;                                  // forward: exponentialAverageFactor
    double param_alpha, param_beta;                 // backward: dscale, dbias = alpha * gradient + beta * old
    int64_t parameter_stride;                       // between channels' parameters
    const float *scale, *bias;                      // bias: forward only
    const float *saved_mean_in, *saved_inv_std_in;  // backward
    float *running_mean, *running_variance, *saved_mean, *saved_inv_std, *dscale, *dbias;
};

inline ChannelResults channel_results(const BatchNormProblem &p, const BatchNormBuffers &b) {
    ChannelResults r{};
    r.running = p.running;
    r.saved = p.saved;
    r.epsilon = static_cast<float>(p.epsilon);
    r.factor = p.factor;
    r.param_alpha = p.param_alpha;
    r.param_beta = p.param_beta;
    r.parameter_stride = p.parameters.strides[1];
    r.scale = static_cast<const float *>(b.scale);
    r.bias = static_cast<const float *>(b.bias);
    r.saved_mean_in = static_cast<const float *>(b.mean);
    r.saved_inv_std_in = static_cast<const float *>(b.variance);
    r.running_mean = static_cast<float *>(b.running_mean);
    r.running_variance = static_cast<float *>(b.running_variance);
    r.saved_mean = static_cast<float *>(b.saved_mean);
    r.saved_inv_std = static_cast<float *>(b.saved_inv_variance);
    r.dscale = static_cast<float *>(b.dscale);
    r.dbias = static_cast<float *>(b.dbias);
    return r;
}

// What a channel's results read besides its sums: the scale, the bias (forward) or the saved statistics (backward),
// and the old values the blends keep (forward: the running mean and variance, where the factor keeps part of them;
// backward: dscale and dbias, where param_beta is not 0; else zeros, never read). Loaded apart from the writes, so
// that a kernel may request them before it has its sums (the merge does, before it waits for the pass before).
struct ChannelInputs {
    float scale, bias;                // bias: forward only
    float saved_mean, saved_inv_std;  // backward
    float old_first, old_second;      // running mean and variance, or dscale and dbias, before the call
};

__device__ __forceinline__ ChannelInputs load_channel_inputs(const ChannelResults &r, int64_t at, bool backward) {
    ChannelInputs in{};
    in.scale = r.scale[at];
    if (!backward) {
        in.bias = r.bias[at];
        if (r.running && 1.0 - r.factor != 0.0) {
            in.old_first = r.running_mean[at];
            in.old_second = r.running_variance[at];
        }
    } else {
        in.saved_mean = r.saved_mean_in[at];
        in.saved_inv_std = r.saved_inv_std_in[at];
        if (r.param_beta != 0.0) {
            in.old_first = r.dscale[at];
            in.old_second = r.dbias[at];
        }
    }
    return in;
}

// target[at] = alpha * value + beta * old, old the target's value before the call (beta 0: not read).
__device__ __forceinline__ void blend(float *target, int64_t at, double alpha, double beta, float value, float old) {
    float result = static_cast<float>(alpha) * value;
    if (beta != 0.0) result += static_cast<float>(beta) * old;
    target[at] = result;
}

// 1 / sqrt(variance + epsilon), as every kernel forms it.
__device__ __forceinline__ float inverse_deviation(const ChannelResults &r, float variance) {
    return 1.0f / sqrtf(variance + r.epsilon);
}

// Forward: the channel's mean and (biased) variance over `count` values; writes the running averages (the
// variance unbiased; factor 1 does not read the old values, which may be uninitialised) and the saved mean
// and inverse deviation where given. Returns the inverse deviation.
__device__ __forceinline__ float write_channel_statistics(const ChannelResults &r, int64_t at, float mean,
                                                          float variance, float count, const ChannelInputs &in) {
    const float inv_std = inverse_deviation(r, variance);
    if (r.running) {
        const double keep = 1.0 - r.factor;
        blend(r.running_mean, at, r.factor, keep, mean, in.old_first);
        blend(r.running_variance, at, r.factor, keep, variance * count / (count - 1.0f), in.old_second);
    }
    if (r.saved) {
        r.saved_mean[at] = mean;
        r.saved_inv_std[at] = inv_std;
    }
    return inv_std;
}

__device__ __forceinline__ float write_channel_statistics(const ChannelResults &r, int64_t at, float mean,
                                                          float variance, float count) {
    return write_channel_statistics(r, at, mean, variance, count, load_channel_inputs(r, at, false));
}

// Backward: dscale and dbias blended with the parameter factors.
__device__ __forceinline__ void write_channel_gradients(const ChannelResults &r, int64_t at, float dscale, float dbias,
                                                        const ChannelInputs &in) {
    blend(r.dscale, at, r.param_alpha, r.param_beta, dscale, in.old_first);
    blend(r.dbias, at, r.param_alpha, r.param_beta, dbias, in.old_second);
}

__device__ __forceinline__ void write_channel_gradients(const ChannelResults &r, int64_t at, float dscale,
                                                        float dbias) {
    write_channel_gradients(r, at, dscale, dbias, load_channel_inputs(r, at, true));
}

}  // namespace librednn::cuda
