// Host half (IEEE binary16) and bfloat16 values and their conversions, rounding to nearest even.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace librednn {

// The 16 bits of one half or bfloat16 value as memory holds them. Plain structs, not arithmetic
// types: host code converts to float (or double) to compute and back to store.
struct Half {
    uint16_t bits = 0;
};
struct BFloat16 {
    uint16_t bits = 0;
};

namespace numeric_detail {

inline uint32_t bits_of(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}
inline uint64_t bits_of(double value) {
    uint64_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}
inline float float_of(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace numeric_detail

// --- half: 1 sign, 5 exponent (bias 15), 10 fraction bits; largest finite 65504 ---------------------

inline float half_to_float(Half h) {
    const uint32_t sign = static_cast<uint32_t>(h.bits & 0x8000u) << 16;
    const uint32_t exponent = (h.bits >> 10) & 0x1fu;
    const uint32_t fraction = h.bits & 0x3ffu;
    if (exponent == 0) {
        // Zero or subnormal: fraction * 2^-24, exact in float.
        const float magnitude = static_cast<float>(fraction) * 5.9604644775390625e-8f;
        return sign ? -magnitude : magnitude;
    }
    if (exponent == 0x1f) {
        // Infinity, or NaN with its payload kept and made quiet.
        return numeric_detail::float_of(sign | 0x7f800000u | (fraction ? 0x400000u | (fraction << 13) : 0u));
    }
    return numeric_detail::float_of(sign | ((exponent + 112u) << 23) | (fraction << 13));
}

// Rounds `value` to the nearest half, ties to even; overflow gives infinity, NaN a quiet NaN.
inline Half half_from_double(double value) {
    const uint64_t bits = numeric_detail::bits_of(value);
    const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
    const double magnitude = std::fabs(value);
    if (std::isnan(value)) return Half{static_cast<uint16_t>(sign | 0x7e00u)};
    // 65520 is halfway between 65504 (odd fraction) and 2^16: it and everything above round to infinity.
    if (magnitude >= 65520.0) return Half{static_cast<uint16_t>(sign | 0x7c00u)};
    if (magnitude < 6.103515625e-05) {
        // Below the smallest normal 2^-14: a multiple of 2^-24. A result of 1024 is the smallest
        // normal's encoding, so it needs no special case.
        return Half{static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0)))};
    }
    // Normal: keep 10 of double's 52 fraction bits, rounding on the 42 dropped (a carry moves into the
    // exponent, as it should), then rebias the exponent from 1023 to 15.
    uint64_t magnitude_bits = bits & 0x7fffffffffffffffull;
    const uint64_t lowest_kept = (magnitude_bits >> 42) & 1u;
    magnitude_bits += (1ull << 41) - 1u + lowest_kept;
    return Half{static_cast<uint16_t>(sign | ((magnitude_bits - (1008ull << 52)) >> 42))};
}

inline Half half_from_float(float value) {
    const uint32_t bits = numeric_detail::bits_of(value);
    const uint16_t sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
    const float magnitude = std::fabs(value);
    if (std::isnan(value)) return Half{static_cast<uint16_t>(sign | 0x7e00u)};
    if (magnitude >= 65520.0f) return Half{static_cast<uint16_t>(sign | 0x7c00u)};
    if (magnitude < 6.103515625e-05f) {
        return Half{static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(magnitude * 16777216.0f)))};
    }
    uint32_t magnitude_bits = bits & 0x7fffffffu;
    const uint32_t lowest_kept = (magnitude_bits >> 13) & 1u;
    magnitude_bits += 0xfffu + lowest_kept;
    return Half{static_cast<uint16_t>(sign | ((magnitude_bits - (112u << 23)) >> 13))};
}

// --- bfloat16: the upper 16 bits of a float (8 exponent, 7 fraction bits) ---------------------------

inline float bfloat16_to_float(BFloat16 b) { return numeric_detail::float_of(static_cast<uint32_t>(b.bits) << 16); }

inline BFloat16 bfloat16_from_float(float value) {
    const uint32_t bits = numeric_detail::bits_of(value);
    if (std::isnan(value)) return BFloat16{static_cast<uint16_t>(((bits >> 16) & 0x8000u) | 0x7fc0u)};
    // Ties to even on the 16 dropped bits; a carry rounds the largest finite values up to infinity.
    const uint32_t lowest_kept = (bits >> 16) & 1u;
    return BFloat16{static_cast<uint16_t>((bits + 0x7fffu + lowest_kept) >> 16)};
}

// Rounds a double straight to bfloat16 (through float would round twice and could miss a tie).
inline BFloat16 bfloat16_from_double(double value) {
    const uint64_t bits = numeric_detail::bits_of(value);
    const uint16_t sign = static_cast<uint16_t>((bits >> 48) & 0x8000u);
    const double magnitude = std::fabs(value);
    if (std::isnan(value)) return BFloat16{static_cast<uint16_t>(sign | 0x7fc0u)};
    // Largest finite bfloat16 is (2 - 2^-7) * 2^127; halfway to 2^128 and above round to infinity.
    if (magnitude >= 0x1.ffp+127) return BFloat16{static_cast<uint16_t>(sign | 0x7f80u)};
    if (magnitude < 0x1p-126) {
        // Subnormal: a multiple of 2^-133 (7 fraction bits below float's smallest normal).
        return BFloat16{static_cast<uint16_t>(sign | static_cast<uint16_t>(std::nearbyint(magnitude * 0x1p133)))};
    }
    uint64_t magnitude_bits = bits & 0x7fffffffffffffffull;
    const uint64_t lowest_kept = (magnitude_bits >> 45) & 1u;
    magnitude_bits += (1ull << 44) - 1u + lowest_kept;
    return BFloat16{static_cast<uint16_t>(sign | ((magnitude_bits - (896ull << 52)) >> 45))};
}

// --- integers: round to nearest even, saturate, NaN to 0 --------------------------------------------

template <class Int>
Int saturate_to_integer(double value) {
    if (std::isnan(value)) return 0;
    const double rounded = std::nearbyint(value);
    if (rounded <= static_cast<double>(std::numeric_limits<Int>::min())) return std::numeric_limits<Int>::min();
    if (rounded >= static_cast<double>(std::numeric_limits<Int>::max())) return std::numeric_limits<Int>::max();
    return static_cast<Int>(rounded);
}

}  // namespace librednn
