// Host conversion of one value to the bits of a scalar type (what cudnnSetTensor stores).
#include "cuda/common/scalar_type.hpp"

#include "core/numeric_types.hpp"

#include <cstring>

namespace librednn::cuda {

uint64_t scalar_bits_of(double value, ScalarType type) {
    uint64_t bits = 0;
    switch (type) {
        case ScalarType::f32: {
            const float narrow = static_cast<float>(value);
            std::memcpy(&bits, &narrow, sizeof narrow);
            break;
        }
        case ScalarType::f64: std::memcpy(&bits, &value, sizeof value); break;
        case ScalarType::f16: bits = half_from_double(value).bits; break;
        case ScalarType::bf16: bits = bfloat16_from_double(value).bits; break;
        case ScalarType::i8: bits = static_cast<uint8_t>(saturate_to_integer<int8_t>(value)); break;
        case ScalarType::u8: bits = saturate_to_integer<uint8_t>(value); break;
        case ScalarType::i32: bits = static_cast<uint32_t>(saturate_to_integer<int32_t>(value)); break;
    }
    return bits;
}

}  // namespace librednn::cuda
