// Device helpers shared by the tensor kernels: scalar conversions (typed and by runtime type), the
// split of a flat position into per-operand offsets, and 16-byte vectors.
#pragma once

#include "cuda/common/scalar_type.hpp"
#include "cuda/common/strided_layout.hpp"

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace librednn::cuda {

// --- math overloads for the two compute types ------------------------------------------------------

__device__ __forceinline__ float math_exp(float x) { return expf(x); }
__device__ __forceinline__ double math_exp(double x) { return exp(x); }
__device__ __forceinline__ float math_expm1(float x) { return expm1f(x); }
__device__ __forceinline__ double math_expm1(double x) { return expm1(x); }
__device__ __forceinline__ float math_log(float x) { return logf(x); }
__device__ __forceinline__ double math_log(double x) { return log(x); }
__device__ __forceinline__ float math_tanh(float x) { return tanhf(x); }
__device__ __forceinline__ double math_tanh(double x) { return tanh(x); }
__device__ __forceinline__ float math_sqrt(float x) { return sqrtf(x); }
__device__ __forceinline__ double math_sqrt(double x) { return sqrt(x); }
__device__ __forceinline__ float math_abs(float x) { return fabsf(x); }
__device__ __forceinline__ double math_abs(double x) { return fabs(x); }
__device__ __forceinline__ float math_fmax(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double math_fmax(double a, double b) { return fmax(a, b); }
__device__ __forceinline__ float math_fmin(float a, float b) { return fminf(a, b); }
__device__ __forceinline__ double math_fmin(double a, double b) { return fmin(a, b); }
template <class C>
__device__ __forceinline__ bool math_isnan(C x) {
    return x != x;
}

// --- warp sums --------------------------------------------------------------------------------------

// The sum of v over the warp, in every lane (a butterfly: a fixed order, the same bits in every lane).
template <class F>
__device__ __forceinline__ F warp_sum(F v) {
#pragma unroll
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

// --- typed conversions: element type T <-> compute type C ------------------------------------------

template <class C>
__device__ __forceinline__ C to_compute(float v) {
    return static_cast<C>(v);
}
template <class C>
__device__ __forceinline__ C to_compute(double v) {
    return static_cast<C>(v);
}
template <class C>
__device__ __forceinline__ C to_compute(__half v) {
    return static_cast<C>(__half2float(v));
}
template <class C>
__device__ __forceinline__ C to_compute(__nv_bfloat16 v) {
    return static_cast<C>(__bfloat162float(v));
}
template <class C>
__device__ __forceinline__ C to_compute(int8_t v) {
    return static_cast<C>(v);
}
template <class C>
__device__ __forceinline__ C to_compute(uint8_t v) {
    return static_cast<C>(v);
}
template <class C>
__device__ __forceinline__ C to_compute(int32_t v) {
    return static_cast<C>(v);
}

// Rounds to the nearest integer (ties to even), saturating at the int32 range; NaN gives 0.
__device__ __forceinline__ int round_to_int(float v) { return __float2int_rn(v); }
__device__ __forceinline__ int round_to_int(double v) { return __double2int_rn(v); }

template <class T>
struct FromCompute;
template <>
struct FromCompute<float> {
    template <class C>
    __device__ static float convert(C v) {
        return static_cast<float>(v);
    }
};
template <>
struct FromCompute<double> {
    template <class C>
    __device__ static double convert(C v) {
        return static_cast<double>(v);
    }
};
template <>
struct FromCompute<__half> {
    __device__ static __half convert(float v) { return __float2half_rn(v); }
    __device__ static __half convert(double v) { return __double2half(v); }
};
template <>
struct FromCompute<__nv_bfloat16> {
    __device__ static __nv_bfloat16 convert(float v) { return __float2bfloat16_rn(v); }
    __device__ static __nv_bfloat16 convert(double v) { return __double2bfloat16(v); }
};
template <>
struct FromCompute<int8_t> {
    template <class C>
    __device__ static int8_t convert(C v) {
        return static_cast<int8_t>(min(max(round_to_int(v), -128), 127));
    }
};
template <>
struct FromCompute<uint8_t> {
    template <class C>
    __device__ static uint8_t convert(C v) {
        return static_cast<uint8_t>(min(max(round_to_int(v), 0), 255));
    }
};
template <>
struct FromCompute<int32_t> {
    template <class C>
    __device__ static int32_t convert(C v) {
        return round_to_int(v);
    }
};

template <class T, class C>
__device__ __forceinline__ T from_compute(C v) {
    return FromCompute<T>::convert(v);
}

// --- conversions by runtime type (the generic strided paths) ---------------------------------------

template <class C>
__device__ __forceinline__ C load_as(const void *base, ScalarType type, int64_t offset) {
    switch (type) {
        case ScalarType::f32: return to_compute<C>(static_cast<const float *>(base)[offset]);
        case ScalarType::f64: return to_compute<C>(static_cast<const double *>(base)[offset]);
        case ScalarType::f16: return to_compute<C>(static_cast<const __half *>(base)[offset]);
        case ScalarType::bf16: return to_compute<C>(static_cast<const __nv_bfloat16 *>(base)[offset]);
        case ScalarType::i8: return to_compute<C>(static_cast<const int8_t *>(base)[offset]);
        case ScalarType::u8: return to_compute<C>(static_cast<const uint8_t *>(base)[offset]);
        case ScalarType::i32: return to_compute<C>(static_cast<const int32_t *>(base)[offset]);
    }
    return C(0);
}

template <class C>
__device__ __forceinline__ void store_as(void *base, ScalarType type, int64_t offset, C v) {
    switch (type) {
        case ScalarType::f32: static_cast<float *>(base)[offset] = from_compute<float>(v); break;
        case ScalarType::f64: static_cast<double *>(base)[offset] = from_compute<double>(v); break;
        case ScalarType::f16: static_cast<__half *>(base)[offset] = from_compute<__half>(v); break;
        case ScalarType::bf16: static_cast<__nv_bfloat16 *>(base)[offset] = from_compute<__nv_bfloat16>(v); break;
        case ScalarType::i8: static_cast<int8_t *>(base)[offset] = from_compute<int8_t>(v); break;
        case ScalarType::u8: static_cast<uint8_t *>(base)[offset] = from_compute<uint8_t>(v); break;
        case ScalarType::i32: static_cast<int32_t *>(base)[offset] = from_compute<int32_t>(v); break;
    }
}

// Stores the low `size` bytes of `bits` (a scalar's memory image) at element `offset`.
__device__ __forceinline__ void store_bits(void *base, int size, int64_t offset, uint64_t bits) {
    switch (size) {
        case 1: static_cast<uint8_t *>(base)[offset] = static_cast<uint8_t>(bits); break;
        case 2: static_cast<uint16_t *>(base)[offset] = static_cast<uint16_t>(bits); break;
        case 4: static_cast<uint32_t *>(base)[offset] = static_cast<uint32_t>(bits); break;
        default: static_cast<uint64_t *>(base)[offset] = bits; break;
    }
}

__device__ __forceinline__ uint64_t load_bits(const void *base, int size, int64_t offset) {
    switch (size) {
        case 1: return static_cast<const uint8_t *>(base)[offset];
        case 2: return static_cast<const uint16_t *>(base)[offset];
        case 4: return static_cast<const uint32_t *>(base)[offset];
        default: return static_cast<const uint64_t *>(base)[offset];
    }
}

// --- positions to offsets ---------------------------------------------------------------------------

__device__ __forceinline__ int64_t divide(const FastDivisor &d, int64_t n) {
    if (n <= 0x7fffffff && d.divisor <= 0x7fffffff) {
        const uint32_t n32 = static_cast<uint32_t>(n);
        return static_cast<int64_t>((__umulhi(n32, d.multiplier32) + n32) >> d.shift);
    }
    const uint64_t n64 = static_cast<uint64_t>(n);
    return static_cast<int64_t>((__umul64hi(n64, d.multiplier64) + n64) >> d.shift);
}

// Offsets of row-major position `position` in the first `Operands` operands of `layout` (dims outer to
// inner). The loop over dims stays rolled: kernels inline this in several places, and the layout is a
// __grid_constant__ parameter, read in place.
template <int Operands>
__device__ __forceinline__ void offsets_of(const DeviceLayout &layout, int64_t position, int64_t (&offsets)[Operands]) {
#pragma unroll
    for (int k = 0; k < Operands; ++k) offsets[k] = 0;
#pragma unroll 1
    for (int d = layout.rank - 1; d >= 1; --d) {
        const int64_t quotient = divide(layout.extents[d], position);
        const int64_t index = position - quotient * layout.extents[d].divisor;
#pragma unroll
        for (int k = 0; k < Operands; ++k) offsets[k] += index * layout.strides[k][d];
        position = quotient;
    }
    if (layout.rank > 0) {
#pragma unroll
        for (int k = 0; k < Operands; ++k) offsets[k] += position * layout.strides[k][0];
    }
}

// Offset in one operand only.
__device__ __forceinline__ int64_t offset_of(const DeviceLayout &layout, int operand, int64_t position) {
    int64_t offset = 0;
#pragma unroll 1
    for (int d = layout.rank - 1; d >= 1; --d) {
        const int64_t quotient = divide(layout.extents[d], position);
        offset += (position - quotient * layout.extents[d].divisor) * layout.strides[operand][d];
        position = quotient;
    }
    if (layout.rank > 0) offset += position * layout.strides[operand][0];
    return offset;
}

// --- 16-byte vectors -------------------------------------------------------------------------------

template <class T>
struct alignas(16) Vector16 {
    static constexpr int kLanes = 16 / sizeof(T);
    T lane[kLanes];
};

// N elements loaded and stored as one vector of N x sizeof(T) bytes (N a power of two, at most 16 bytes in all).
template <class T, int N>
struct alignas(sizeof(T) * N) Lanes {
    T lane[N];
};

__host__ __device__ __forceinline__ bool aligned16(const void *pointer) {
    return (reinterpret_cast<uintptr_t>(pointer) & 15u) == 0;
}

// --- two lanes of a 2-byte type as one register (half2, bfloat162): paired compares and maxima ---------

template <class T>
using PairOf = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;

// -infinity in both lanes of a pair of T (half or bfloat16), as the pair's bits.
template <class T>
constexpr uint32_t kMinusInfinityPairBits = std::is_same_v<T, __half> ? 0xfc00fc00u : 0xff80ff80u;

// The lane-wise maxima of 16-byte vectors of a 2-byte type, two lanes a compare in their own type
// (__hmax2: exact; NaN loses to a number, as in fmaxf). Starts at -infinity.
template <class T>
struct PairMaxima {
    static constexpr int kPairs = Vector16<T>::kLanes / 2;
    PairOf<T> pairs[kPairs];

    __device__ __forceinline__ PairMaxima() {
        const uint32_t minus_infinity = kMinusInfinityPairBits<T>;
#pragma unroll
        for (int p = 0; p < kPairs; ++p) memcpy(&pairs[p], &minus_infinity, 4);
    }
    __device__ __forceinline__ void add(const Vector16<T> &v) {
        PairOf<T> values[kPairs];
        memcpy(values, &v, 16);
#pragma unroll
        for (int p = 0; p < kPairs; ++p) pairs[p] = __hmax2(pairs[p], values[p]);
    }
    // Lane j's maximum, as a float.
    __device__ __forceinline__ float lane(int j) const {
        return j % 2 == 0 ? __low2float(pairs[j / 2]) : __high2float(pairs[j / 2]);
    }
};

}  // namespace librednn::cuda
