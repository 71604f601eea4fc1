// The reduce-tensor descriptor (cudnnReduceTensorDescriptor_t): the reduction cudnnReduceTensor applies.
#pragma once

#include "core/status.hpp"

#include <cudnn.h>

#include <cstddef>
#include <string>

struct cudnnReduceTensorStruct {
    bool is_set = false;  // false until cudnnSetReduceTensorDescriptor succeeds
    cudnnReduceTensorOp_t op = CUDNN_REDUCE_TENSOR_ADD;
    cudnnDataType_t comp_type = CUDNN_DATA_FLOAT;
    cudnnNanPropagation_t nan_opt = CUDNN_NOT_PROPAGATE_NAN;  // cuDNN applies it to MIN and MAX only
    cudnnReduceTensorIndices_t indices = CUDNN_REDUCE_TENSOR_NO_INDICES;
    cudnnIndicesType_t indices_type = CUDNN_32BIT_INDICES;
};

namespace librednn {

// Sets `desc` after checking that each argument is a value of its enum.
//
// Indices with an operation other than MIN or MAX are accepted: cuDNN documents that the indices
// space is then ignored (see reduce_tensor_computes_indices). That only 32-bit indices are
// supported is a rule of cudnnReduceTensor, which is where it is checked.
Status set_reduce_tensor(cudnnReduceTensorStruct *desc, cudnnReduceTensorOp_t op, cudnnDataType_t comp_type,
                         cudnnNanPropagation_t nan_opt, cudnnReduceTensorIndices_t indices,
                         cudnnIndicesType_t indices_type);

// CUDNN_STATUS_BAD_PARAM naming `name` when `desc` has not been set.
Status require_reduce_tensor_set(const cudnnReduceTensorStruct &desc, const char *name);

// True when cudnnReduceTensor writes indices: FLATTENED_INDICES asked for, and the op is MIN or MAX.
bool reduce_tensor_computes_indices(const cudnnReduceTensorStruct &desc);

// Bytes of one index of this type (4 for CUDNN_32BIT_INDICES, ...).
size_t reduce_indices_type_size(cudnnIndicesType_t type);

// "CUDNN_REDUCE_TENSOR_MAX, compute float, CUDNN_PROPAGATE_NAN, CUDNN_REDUCE_TENSOR_FLATTENED_INDICES,
// CUDNN_32BIT_INDICES" ("unset" before a Set), for log lines.
std::string reduce_tensor_to_string(const cudnnReduceTensorStruct &desc);

}  // namespace librednn
