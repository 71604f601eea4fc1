// The spatial transformer descriptor (cudnnSpatialTransformerDescriptor_t): sampler, data type and the
// dims of the transformed (output) tensor.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <string>

struct cudnnSpatialTransformerStruct {
    bool is_set = false;  // false until cudnnSetSpatialTransformerNdDescriptor succeeds
    cudnnSamplerType_t sampler = CUDNN_SAMPLER_BILINEAR;
    cudnnDataType_t data_type = CUDNN_DATA_FLOAT;
    int nb_dims = 0;
    int dims[CUDNN_DIM_MAX] = {};  // N, C, H, W of the output; the grid is N x H x W x 2
};

namespace librednn {

// The one dimensionality a spatial transformer takes (N, C, H, W).
constexpr int kSpatialTransformerDims = 4;

// Sets `desc` after the checks: sampler and data type are enum values, every dim is positive
// (BAD_PARAM); nbDims must be 4, the only dimensionality cuDNN's grid generator and sampler take
// (NOT_SUPPORTED otherwise, BAD_PARAM when it is not even a possible dim count).
Status set_spatial_transformer(cudnnSpatialTransformerStruct *desc, cudnnSamplerType_t sampler,
                               cudnnDataType_t data_type, int nb_dims, const int *dims);

// "CUDNN_SAMPLER_BILINEAR, float, 2x3x16x16" ("unset" before a Set), for log lines.
std::string spatial_transformer_to_string(const cudnnSpatialTransformerStruct &desc);

}  // namespace librednn
