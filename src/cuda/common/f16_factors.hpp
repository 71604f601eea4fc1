// Half factors for the tensor cores made from float values (GemmOperands::f16_factors): an operand is scaled by
// 2^-e, e = f16_scale_exponent(the bits of its largest magnitude), so that its largest magnitude stays below 2^15
// and no factor overflows when rounded to half; the product's sums are scaled by 2^e back, exactly. A factor v is
// then off by up to 2^-11 |v| (rounded to nearest where it scales to a normal half: TF32's bound) or by
// 2^(e - 25) (where it scales into half's subnormals). Operands whose values are halves already (the layer input
// of half data) need no scale: e = 0.
#pragma once

#include <cstdint>

#ifndef LIBREDNN_HOST_DEVICE  // as descriptors/dropout.hpp defines it
#if defined(__CUDACC__)
#define LIBREDNN_HOST_DEVICE __host__ __device__
#else
#define LIBREDNN_HOST_DEVICE
#endif
#endif

namespace librednn::cuda {

// e >= 0 for a largest magnitude whose float bits are `maximum_bits` (sign clear): the smallest that leaves it
// below 2^15; 0 where it is infinite or NaN (nothing to keep in range: the results are not finite anyway).
LIBREDNN_HOST_DEVICE inline int f16_scale_exponent(uint32_t maximum_bits) {
    const int biased = static_cast<int>(maximum_bits >> 23);  // floor(log2) + 127 for a normal magnitude
    if (biased >= 255) return 0;
    const int e = biased - 127 - 14;
    return e > 0 ? e : 0;
}

// The exponent of a factor's operand where `maximum` (device memory, or null: not scaled) holds its bits.
LIBREDNN_HOST_DEVICE inline int f16_scale_exponent_at(const uint32_t *maximum) {
    return maximum != nullptr ? f16_scale_exponent(*maximum) : 0;
}

}  // namespace librednn::cuda
