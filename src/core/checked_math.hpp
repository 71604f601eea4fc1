// Integer products and sums of sizes that stop at INT64_MAX instead of wrapping: dims, strides and
// fold factors come from the caller as arbitrary ints, and up to eight of them multiply.
#pragma once

#include <cstdint>

namespace librednn {

inline int64_t saturating_mul(int64_t a, int64_t b) {
    int64_t result = 0;
    return __builtin_mul_overflow(a, b, &result) ? INT64_MAX : result;
}

inline int64_t saturating_add(int64_t a, int64_t b) {
    int64_t result = 0;
    return __builtin_add_overflow(a, b, &result) ? INT64_MAX : result;
}

}  // namespace librednn
