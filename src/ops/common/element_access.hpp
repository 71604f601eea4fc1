// Reading and writing one scalar element of any data type as a double: what the reference and the
// generic host paths use, so that every type goes through the same conversions.
#pragma once

#include <cudnn.h>

#include <cstddef>
#include <cstdint>

namespace librednn {

// The type of one scalar of `type`: INT8 for INT8x4 and INT8x32, UINT8 for UINT8x4, else `type`.
cudnnDataType_t scalar_type_of(cudnnDataType_t type);

// Bytes of one scalar of `type` (1 for INT8x4: a scalar, not a vector).
size_t scalar_size_of(cudnnDataType_t type);

// True for the types element access can read and write: float, double, half, bfloat16, int8, uint8,
// int32, int64, boolean and the vectorised int8 types (fp8 types are not among them yet).
bool element_access_supports(cudnnDataType_t type);

// The scalar at `offset` (in scalars) from `base`, converted exactly to double.
double load_scalar(const void *base, cudnnDataType_t type, int64_t offset);

// Stores `value` at `offset`, rounding to nearest even; integer types saturate and take NaN as 0;
// boolean stores value != 0.
void store_scalar(void *base, cudnnDataType_t type, int64_t offset, double value);

}  // namespace librednn
