// Device helpers shared by the strip and global pooling kernels (pooling_strips.hpp, pooling_global.hpp): a maximum
// folded without its position.
#pragma once

#include "cuda/common/device_common.cuh"

#include <math_constants.h>

namespace librednn::cuda {

// A maximum as the packed kernels take it (take_max there), without its position: the first of equal maxima
// stays; NaN is skipped, or (propagated) wins and then stays. "None yet" is NaN where NaN is skipped (a window
// of NaNs gives 0, as in the packed kernels) and -infinity where it propagates, which gives the same result
// for a window holding at least one value.
__device__ __forceinline__ float max_none(bool propagate) { return propagate ? -CUDART_INF_F : CUDART_NAN_F; }

__device__ __forceinline__ void fold_max(float &so_far, float value, bool propagate) {
    if (propagate) {
        if (so_far == so_far && (value != value || value > so_far)) so_far = value;
    } else if (value == value && (so_far != so_far || value > so_far)) {
        so_far = value;
    }
}

// fold_max with the NaN mode known at compile time: the conditions as predicates and a select, one form a kernel
// (the run-time mode's two forms, in a fully unrolled kernel, doubled its code and branched at every tap).
template <bool kPropagate>
__device__ __forceinline__ void fold_max_as(float &so_far, float value) {
    const bool value_nan = value != value, so_far_nan = so_far != so_far, above = value > so_far;
    const bool take = kPropagate ? !so_far_nan & (value_nan | above) : !value_nan & (so_far_nan | above);
    so_far = take ? value : so_far;
}

__device__ __forceinline__ float max_result(float so_far, bool propagate) {
    return so_far == so_far || propagate ? so_far : 0.0f;
}

}  // namespace librednn::cuda
