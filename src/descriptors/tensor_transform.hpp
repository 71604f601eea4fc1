// The tensor transform descriptor (cudnnTensorTransformDescriptor_t): destination format, padding
// before and after each dim, and folding of the spatial dims into channels (or back).
#pragma once

#include "core/status.hpp"
#include "descriptors/tensor.hpp"

#include <cudnn.h>

#include <cstdint>
#include <string>

struct cudnnTensorTransformStruct {
    bool is_set = false;
    uint32_t nb_dims = 0;
    cudnnTensorFormat_t dest_format = CUDNN_TENSOR_NCHW;
    int32_t pad_before[CUDNN_DIM_MAX] = {};  // per dim in NCHW order; negative values crop
    int32_t pad_after[CUDNN_DIM_MAX] = {};
    uint32_t fold[CUDNN_DIM_MAX] = {};  // per spatial dim (fold[0] is dim 2); 1 = no folding
    cudnnFoldingDirection_t direction = CUDNN_TRANSFORM_FOLD;
};

namespace librednn {

// Sets `transform` after checking cuDNN's rules. NULL pads mean no padding, NULL fold no folding.
// On failure `transform` is left as it was.
Status set_tensor_transform(cudnnTensorTransformStruct *transform, uint32_t nb_dims, cudnnTensorFormat_t dest_format,
                            const int32_t *pad_before, const int32_t *pad_after, const uint32_t *fold,
                            cudnnFoldingDirection_t direction);

// True when the transform folds or unfolds (some fold factor above 1).
bool transform_folds(const cudnnTensorTransformStruct &transform);

// The packed destination of applying `transform` to `src` (cudnnInitTransformDest): padding adds to
// each dim of the unfolded geometry; folding multiplies C by the product of the fold factors and
// divides each spatial dim by its factor (rounding up); unfolding does the reverse. On failure
// `dest` is left as it was.
Status transform_destination(const cudnnTensorTransformStruct &transform, const cudnnTensorStruct &src,
                             cudnnTensorStruct *dest);

// "NHWC padBefore 0x1x1x0 padAfter 0x1x0x1 fold 2x3", for log lines.
std::string tensor_transform_to_string(const cudnnTensorTransformStruct &transform);

}  // namespace librednn
