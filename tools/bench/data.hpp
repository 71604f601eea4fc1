// Element types the bench fills and compares: names as problem strings spell them, sizes, conversion
// to and from double, and the seeded random values inputs are made of.
#pragma once

#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace librednn::bench {

// "float", "double", "half", "bfloat16", "int8", "int32", "uint8" (LibreDNN's dispatch log spells them alike).
bool parse_data_type(const std::string &name, cudnnDataType_t *type);
const char *data_type_name(cudnnDataType_t type);
size_t data_type_size(cudnnDataType_t type);
bool is_integer_type(cudnnDataType_t type);

// IEEE binary16 and bfloat16 from and to float, rounding to nearest even; NaN stays NaN.
uint16_t float_to_half(float value);
float half_to_float(uint16_t bits);
uint16_t float_to_bfloat16(float value);
float bfloat16_to_float(uint16_t bits);

// Writes `count` values into `out` (count * data_type_size(type) bytes), rounding as the type does;
// integer types round to nearest and saturate.
void encode(cudnnDataType_t type, const double *values, size_t count, void *out);
// Reads `count` elements of `type` as doubles.
void decode(cudnnDataType_t type, const void *in, size_t count, double *values);

// What values a tensor holds: most are uniform in [-1, 1]; variances, inverse deviations and
// scales stay positive, so that every operation is defined on them; RNN weights are small (uniform in
// [-0.1, 0.1]), so that a gate summing a thousand products stays off the flat ends of its sigmoid.
enum class Fill { symmetric, positive, small };

// A small, fast, seeded generator (splitmix64): the same seed gives the same data on every machine.
class Random {
public:
    explicit Random(uint64_t seed) : state_(seed) {}
    uint64_t next();
    double uniform(double low, double high);  // [low, high)

private:
    uint64_t state_;
};

// `count` random values of `fill`, already rounded to `type` (integers: whole numbers in [-8, 8]).
std::vector<double> random_values(cudnnDataType_t type, Fill fill, size_t count, uint64_t seed);

}  // namespace librednn::bench
