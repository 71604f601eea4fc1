// cudnnReduceTensor on the GPU: c = alpha * reduce(a) + beta * c over every dim where c has extent 1
// and a does not, for ADD, MUL, MIN, MAX, AMAX, AVG, NORM1, NORM2 and MUL_NO_ZEROS, with the flattened
// 32-bit index of the chosen element for MIN, MAX and AMAX. a is float, double, half, bfloat16 or int8
// (accumulated in float, double for double); c any of those (int8 and double do not mix). An int8 c
// takes the float result rounded to nearest even and saturated. Any strides.
// Pointers are device pointers; work is queued on `stream`; nothing synchronises.
#pragma once

#include "core/status.hpp"
#include "ops/common/tensor_geometry.hpp"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <cstddef>
#include <cstdint>

namespace librednn::cuda {

struct ReduceSpec {
    cudnnReduceTensorOp_t op = CUDNN_REDUCE_TENSOR_ADD;
    // MIN, MAX, AMAX: with PROPAGATE_NAN a NaN wins (the first NaN's index); otherwise NaNs are skipped
    // (an all-NaN slice gives NaN and index 0). Sums and products propagate NaN either way.
    cudnnNanPropagation_t nan = CUDNN_NOT_PROPAGATE_NAN;
    // MIN, MAX, AMAX only: write indices[p] for each c element, p its row-major position over c's dims
    // (NCHW order, whatever c's strides). The index counts the element within its reduced slice,
    // row-major over the reduced dims in NCHW order. Ties go to the smallest index.
    bool compute_indices = false;
};

// Bytes of workspace that let reduce_tensor split long reductions with few outputs over several warps or
// blocks (partial results combined in a fixed order); 0 when the problem needs no split. Depends on the
// current device's SM count.
size_t reduce_workspace_bytes(const ReduceSpec &spec, const TensorGeometry &a, const TensorGeometry &c);

// Each dim of c equals a's or is 1. `indices` may be null when spec.compute_indices is false. With less
// workspace than reduce_workspace_bytes the reduction splits less (unsplit without any): correct,
// slower, and for sums possibly different in the last bits. Results are reproducible for a given
// workspace size, whatever a's alignment.
// c is never read when beta is 0.
Status reduce_tensor(cudaStream_t stream, const ReduceSpec &spec, void *workspace, size_t workspace_bytes,
                     uint32_t *indices, double alpha, const TensorGeometry &a, const void *a_data, double beta,
                     const TensorGeometry &c, void *c_data);

}  // namespace librednn::cuda
