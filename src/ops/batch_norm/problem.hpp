// A batch-normalisation problem (cudnnBatchNormalizationForwardInference, ForwardTraining, Backward) as a
// value, with its buffers and its problem string ("op=bn mode=spatial phase=train_fwd dtype=half
// dims=... eps=1e-05 factor=0.1 alpha=1 beta=0", librednn-bench's grammar).
//
// x, y, dy, dx [N, C, spatial...] (4 or 5 dims); the parameters (scale, bias, means, variances and their
// gradients) have the dims cudnnDeriveBNTensorDescriptor gives: [1, C, 1...] for SPATIAL and
// SPATIAL_PERSISTENT (statistics over N and the spatial dims), [1, C, spatial...] for PER_ACTIVATION
// (statistics over N). M is the number of values one parameter element normalises.
//
// The Ex calls (and the cudnnNormalization* calls, which are these problems too) add bnOps: BN_ACTIVATION
// applies ReLU to the normalised value, BN_ADD_ACTIVATION adds z first (inference and training); their
// backward pass masks dy with y > 0 (y the forward's output) and, for ADD, writes that masked gradient
// to dz.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

enum class BatchNormPhase { inference, training, backward };

struct BatchNormProblem {
    BatchNormPhase phase = BatchNormPhase::inference;
    cudnnBatchNormMode_t mode = CUDNN_BATCHNORM_SPATIAL;
    cudnnBatchNormOps_t ops = CUDNN_BATCHNORM_OPS_BN;  // the Ex calls' bnOps
    // inference and training: x (+ z) -> y; backward: x, dy (and y for the activation's mask) -> dx (+ dz).
    TensorGeometry x, y, dy, dx;
    TensorGeometry z;           // inference or training with BN_ADD_ACTIVATION: z; backward with it: dz
    TensorGeometry parameters;  // scale, bias, means, variances; backward: scale, dscale, dbias, saved
    // y (or dx) = alpha * result + beta * y; backward: alpha and beta are alphaDataDiff / betaDataDiff,
    // and dscale, dbias = param_alpha * gradient + param_beta * old.
    double alpha = 1.0, beta = 0.0;
    double param_alpha = 1.0, param_beta = 0.0;
    double epsilon = 1e-5;
    double factor = 1.0;  // training: exponentialAverageFactor
    bool running = true;  // training: resultRunningMean / resultRunningVariance given
    bool saved = true;    // training: resultSave* given; backward: savedMean / savedInvVariance given

    const TensorGeometry &result() const { return phase == BatchNormPhase::backward ? dx : y; }
    bool per_activation() const { return mode == CUDNN_BATCHNORM_PER_ACTIVATION; }
    bool activation() const { return ops != CUDNN_BATCHNORM_OPS_BN; }
    bool adds() const { return ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION; }
    // The number of parameter elements and the number of values each normalises (M).
    int64_t parameter_count() const;
    int64_t values_per_parameter() const;
    bool operator==(const BatchNormProblem &other) const;
};

struct BatchNormBuffers {
    const void *x = nullptr;
    const void *dy = nullptr;  // backward
    void *result = nullptr;    // y, or dx backward; read too when beta != 0
    const void *scale = nullptr;
    const void *bias = nullptr;      // inference and training
    const void *mean = nullptr;      // inference: estimatedMean; backward: savedMean (or nullptr)
    const void *variance = nullptr;  // inference: estimatedVariance; backward: savedInvVariance (or nullptr)
    void *running_mean = nullptr;    // training, optional pair
    void *running_variance = nullptr;
    void *saved_mean = nullptr;  // training, optional pair
    void *saved_inv_variance = nullptr;
    void *dscale = nullptr;  // backward
    void *dbias = nullptr;
    const void *z = nullptr;  // inference or training with BN_ADD_ACTIVATION
    const void *y = nullptr;  // backward with an activation: the forward's output
    void *dz = nullptr;       // backward with BN_ADD_ACTIVATION
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const BatchNormProblem &problem, const BatchNormBuffers &buffers);

// "spatial", "per_activation", "spatial_persistent"; nullptr for other values.
const char *batch_norm_mode_name(cudnnBatchNormMode_t mode);
// "bn", "bn_act", "bn_add_act"; nullptr for other values.
const char *batch_norm_ops_name(cudnnBatchNormOps_t ops);
// "inference", "train_fwd", "bwd".
const char *batch_norm_phase_name(BatchNormPhase phase);

// The parameter dims for x dims `x` (nb_dims of them) in `mode`.
void batch_norm_parameter_dims(cudnnBatchNormMode_t mode, int nb_dims, const int64_t *x, int64_t *parameters);

ProblemString to_problem_string(const BatchNormProblem &problem);
bool parse_batch_norm_problem(const ProblemString &text, BatchNormProblem *problem, std::string *error);

}  // namespace librednn
