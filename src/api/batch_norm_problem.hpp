// The problem builder cudnnBatchNormalizationForwardInference, ForwardTraining and Backward share.
#pragma once

#include "descriptors/activation.hpp"
#include "descriptors/tensor.hpp"
#include "ops/batch_norm/problem.hpp"

namespace librednn::api {

// The problem the descriptors describe, validated (ops/batch_norm/validate.hpp). `y` is yDesc
// (inference, training) or dyDesc (backward); `dx` only backward.
Status batch_norm_problem_of(BatchNormPhase phase, cudnnBatchNormMode_t mode, const cudnnTensorStruct *x,
                             const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                             const cudnnTensorStruct *parameters, double epsilon, BatchNormProblem *problem);

// The Ex calls' extras: bnOps, zDesc (training) or dzDesc (backward), the forward's yDesc (backward),
// and the activation, which BN_ACTIVATION and BN_ADD_ACTIVATION need (ReLU). Each may be null where
// bnOps does not use it.
struct BatchNormExtras {
    cudnnBatchNormOps_t ops = CUDNN_BATCHNORM_OPS_BN;
    const cudnnTensorStruct *z = nullptr;
    const cudnnTensorStruct *forward_y = nullptr;
    const cudnnActivationStruct *activation = nullptr;
};

// The problem of an Ex call: batch_norm_problem_of plus the extras, validated.
Status batch_norm_ex_problem_of(BatchNormPhase phase, cudnnBatchNormMode_t mode, const BatchNormExtras &extras,
                                const cudnnTensorStruct *x, const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                                const cudnnTensorStruct *parameters, double epsilon, BatchNormProblem *problem);

// The cudnnNormalization* calls as batch-norm problems: CUDNN_NORM_PER_CHANNEL is SPATIAL (with
// CUDNN_NORM_ALGO_PERSIST, SPATIAL_PERSISTENT: the same numbers), PER_ACTIVATION is PER_ACTIVATION, and
// normOps are the bnOps of the same values. groupCnt must be 1 (cuDNN 8.9's only value), and
// normMeanVarDesc (null where no statistics are passed) must describe what normScaleBiasDesc does.
struct NormalizationCall {
    cudnnNormMode_t mode;
    cudnnNormOps_t ops;
    cudnnNormAlgo_t algo;
    int group_count;
    const cudnnTensorStruct *scale_bias;
    const cudnnTensorStruct *mean_var;
};
Status normalization_problem_of(BatchNormPhase phase, const NormalizationCall &call, BatchNormExtras extras,
                                const cudnnTensorStruct *x, const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                                double epsilon, BatchNormProblem *problem);

// BAD_PARAM unless both or neither of a pair of optional pointers is given; *given says which.
Status optional_pair(const void *first, const char *first_name, const void *second, const char *second_name,
                     bool *given);

}  // namespace librednn::api
