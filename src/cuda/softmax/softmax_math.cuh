// Softmax arithmetic shared by the softmax kernels: a row's statistics (running max and rescaled sum,
// or the backward sum), how partial statistics combine, and each output element from them.
#pragma once

#include "cuda/common/device_common.cuh"

#include <cudnn.h>

#include <type_traits>

namespace librednn::cuda {

// The exponential for elements of type T: 2-byte types (half, bfloat16) take the hardware exp2 of
// x log2(e) (relative error below 2^-21 + |x| 2^-24, far under their rounding: their outputs are at
// most 2^-11 precise); float and double keep expf (2 ulp) and exp (1 ulp): the hardware exp2 errs by
// about |x| ulp of float, too much for elements far below the row's max. Callers pass x - shift,
// subtracted first (exact when x is near the shift), never folded into one fused multiply-add as
// x log2(e) - shift log2(e): the rounding of shift log2(e) is half an ulp of the shift's magnitude (0.004
// at 65504 in half, 64 at 1e9 in bfloat16), an error in every exponent that LOG outputs keep and that
// overflows the sums of large bfloat16 rows.
template <class T>
constexpr bool kFastExpOf = sizeof(T) == 2;
template <bool Fast>
__device__ __forceinline__ float path_exp(float x) {
    if constexpr (Fast) {
        float result;  // 2^(x log2 e), subnormal results flushed (below 2^-126: zero in half, far under bfloat16's ulp)
        asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(result) : "f"(x * 1.4426950408889634f));
        return result;
    } else {
        return expf(x);
    }
}
template <bool Fast>
__device__ __forceinline__ double path_exp(double x) {
    return exp(x);
}

// Forward: running max and sum of e^(x - max) (FAST: sum of e^x, max unused). Backward: the sum.
template <class C>
struct RowStats {
    C max;
    C sum;
};

template <class C>
__device__ __forceinline__ void add_forward(RowStats<C> &stats, C x, int algorithm) {
    if (algorithm == CUDNN_SOFTMAX_FAST) {
        stats.sum += path_exp<false>(x);
    } else if (x > stats.max) {
        stats.sum = stats.sum * path_exp<false>(stats.max - x) + C(1);
        stats.max = x;
    } else if (x != -C(INFINITY)) {
        stats.sum += path_exp<false>(x - stats.max);  // NaN x makes the sum NaN: it propagates
    }
}

template <class C>
__device__ __forceinline__ void combine_stats(RowStats<C> &stats, const RowStats<C> &other, int algorithm,
                                              int backward) {
    if (backward || algorithm == CUDNN_SOFTMAX_FAST) {
        stats.sum += other.sum;
        return;
    }
    const C max = math_fmax(stats.max, other.max);
    // An empty side (sum 0) adds nothing; a NaN sum stays NaN.
    const C mine = stats.sum == C(0) ? C(0) : stats.sum * path_exp<false>(stats.max - max);
    const C theirs = other.sum == C(0) ? C(0) : other.sum * path_exp<false>(other.max - max);
    stats.max = max;
    stats.sum = mine + theirs;
}

// Symmetric butterfly: every lane ends with the same bits.
template <class C>
__device__ __forceinline__ RowStats<C> warp_combine(RowStats<C> stats, int algorithm, int backward) {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
        RowStats<C> other;
        other.max = __shfl_xor_sync(0xffffffffu, stats.max, offset);
        other.sum = __shfl_xor_sync(0xffffffffu, stats.sum, offset);
        combine_stats(stats, other, algorithm, backward);
    }
    return stats;
}

// What pass 2 needs from the row's statistics.
template <class C>
struct RowConstants {
    C max, scale;  // forward ACCURATE/FAST: scale = 1 / sum; LOG: max + log(sum) in `max`
    C sum;         // backward
};

template <class C>
__device__ __forceinline__ RowConstants<C> row_constants(const RowStats<C> &stats, int algorithm) {
    RowConstants<C> constants;
    constants.sum = stats.sum;
    constants.scale = C(1) / stats.sum;
    constants.max = algorithm == CUDNN_SOFTMAX_LOG ? stats.max + math_log(stats.sum) : stats.max;
    return constants;
}

// A thread's statistics over values it holds: the max first, then every e^(x - max) independent of the
// others (no dependency chain through a running max). -inf elements add nothing, NaN ones make the sum
// NaN. FAST ignores the max.
template <class C, int N>
__device__ __forceinline__ RowStats<C> forward_stats_of(const C (&x)[N], const bool (&valid)[N], int algorithm) {
    RowStats<C> stats = {-C(INFINITY), C(0)};
    if (algorithm != CUDNN_SOFTMAX_FAST) {
#pragma unroll
        for (int i = 0; i < N; ++i) {
            if (valid[i]) stats.max = math_fmax(stats.max, x[i]);
        }
    }
#pragma unroll
    for (int i = 0; i < N; ++i) {
        if (!valid[i]) continue;
        if (algorithm == CUDNN_SOFTMAX_FAST) {
            stats.sum += path_exp<false>(x[i]);
        } else if (x[i] != -C(INFINITY)) {
            stats.sum += path_exp<false>(x[i] - stats.max);
        }
    }
    return stats;
}

// --- the softmax path as compile-time constants ---------------------------------------------------------
// Kernels run their per-element loops for one algorithm and direction known at compile time: with the
// algorithm a runtime value the compiler if-converts the per-element choices, issuing every side
// predicated (on the H200 that made the forward kernels issue-bound).

// What a thread subtracts from each element before the exponential of its sum: its max, or 0 when that
// is -inf (every element it holds is -inf or NaN: -inf ones then add e^-inf = 0, NaN ones make the sum
// NaN, as add_forward does); FAST: 0. No per-element test.
template <int Algorithm, class C>
__device__ __forceinline__ C path_exp_base(C max) {
    if constexpr (Algorithm == CUDNN_SOFTMAX_FAST) {
        return C(0);
    } else {
        return max == -C(INFINITY) ? C(0) : max;
    }
}

template <int Algorithm, bool Fast, class C>
__device__ __forceinline__ C path_forward_value(C x, const RowConstants<C> &k) {
    if constexpr (Algorithm == CUDNN_SOFTMAX_FAST) {
        return path_exp<Fast>(x) * k.scale;
    } else if constexpr (Algorithm == CUDNN_SOFTMAX_LOG) {
        return x - k.max;
    } else {
        return path_exp<Fast>(x - k.max) * k.scale;
    }
}

template <int Algorithm, bool Fast, class C>
__device__ __forceinline__ C path_backward_value(C y, C dy, const RowConstants<C> &k) {
    if constexpr (Algorithm == CUDNN_SOFTMAX_LOG) {
        return dy - path_exp<Fast>(y) * k.sum;
    } else {
        return y * (dy - k.sum);
    }
}

template <int Algorithm, class C>
__device__ __forceinline__ C path_backward_term(C y, C dy) {
    if constexpr (Algorithm == CUDNN_SOFTMAX_LOG) {
        return dy;
    } else {
        return dy * y;
    }
}

// The same with the algorithm a runtime value, for the general kernels (one formula each, above).
template <class C>
__device__ __forceinline__ C forward_value(C x, const RowConstants<C> &k, int algorithm) {
    switch (algorithm) {
        case CUDNN_SOFTMAX_FAST: return path_forward_value<CUDNN_SOFTMAX_FAST, false>(x, k);
        case CUDNN_SOFTMAX_LOG: return path_forward_value<CUDNN_SOFTMAX_LOG, false>(x, k);
        default: return path_forward_value<CUDNN_SOFTMAX_ACCURATE, false>(x, k);
    }
}

// y and dy at one element; the row sum from pass 1.
template <class C>
__device__ __forceinline__ C backward_value(C y, C dy, const RowConstants<C> &k, int algorithm) {
    return algorithm == CUDNN_SOFTMAX_LOG ? path_backward_value<CUDNN_SOFTMAX_LOG, false>(y, dy, k)
                                          : path_backward_value<CUDNN_SOFTMAX_ACCURATE, false>(y, dy, k);
}

template <class C>
__device__ __forceinline__ C backward_term(C y, C dy, int algorithm) {
    return algorithm == CUDNN_SOFTMAX_LOG ? path_backward_term<CUDNN_SOFTMAX_LOG>(y, dy)
                                          : path_backward_term<CUDNN_SOFTMAX_ACCURATE>(y, dy);
}

// Calls body(algorithm, backward) with both as std::integral_constant: forward FAST, ACCURATE or LOG;
// backward LOG or the others (ACCURATE and FAST share their backward).
template <class Body>
__device__ __forceinline__ void dispatch_softmax_path(int algorithm, bool backward, Body &&body) {
    using Fast = std::integral_constant<int, CUDNN_SOFTMAX_FAST>;
    using Accurate = std::integral_constant<int, CUDNN_SOFTMAX_ACCURATE>;
    using Log = std::integral_constant<int, CUDNN_SOFTMAX_LOG>;
    if (backward) {
        if (algorithm == CUDNN_SOFTMAX_LOG) {
            body(Log{}, std::true_type{});
        } else {
            body(Accurate{}, std::true_type{});
        }
    } else if (algorithm == CUDNN_SOFTMAX_FAST) {
        body(Fast{}, std::false_type{});
    } else if (algorithm == CUDNN_SOFTMAX_LOG) {
        body(Log{}, std::false_type{});
    } else {
        body(Accurate{}, std::false_type{});
    }
}

}  // namespace librednn::cuda
