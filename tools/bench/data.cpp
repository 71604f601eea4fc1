// Element types: names, sizes, half/bfloat16 rounding, seeded random values.
#include "data.hpp"

#include "core/numeric_types.hpp"

#include <cmath>
#include <cstring>

namespace librednn::bench {

namespace {

struct TypeInfo {
    cudnnDataType_t type;
    const char *name;
    size_t size;
    bool integer;
};

const TypeInfo kTypes[] = {
    {CUDNN_DATA_FLOAT, "float", 4, false}, {CUDNN_DATA_DOUBLE, "double", 8, false},
    {CUDNN_DATA_HALF, "half", 2, false},   {CUDNN_DATA_BFLOAT16, "bfloat16", 2, false},
    {CUDNN_DATA_INT8, "int8", 1, true},    {CUDNN_DATA_INT32, "int32", 4, true},
    {CUDNN_DATA_UINT8, "uint8", 1, true},
};

const TypeInfo *find(cudnnDataType_t type) {
    for (const TypeInfo &info : kTypes)
        if (info.type == type) return &info;
    return nullptr;
}

double saturate_round(double value, double low, double high) {
    if (std::isnan(value)) return 0;
    const double rounded = std::nearbyint(value);
    return rounded < low ? low : rounded > high ? high : rounded;
}

}  // namespace

bool parse_data_type(const std::string &name, cudnnDataType_t *type) {
    for (const TypeInfo &info : kTypes) {
        if (name == info.name) {
            *type = info.type;
            return true;
        }
    }
    return false;
}

const char *data_type_name(cudnnDataType_t type) {
    const TypeInfo *info = find(type);
    return info ? info->name : "unknown";
}

size_t data_type_size(cudnnDataType_t type) {
    const TypeInfo *info = find(type);
    return info ? info->size : 0;
}

bool is_integer_type(cudnnDataType_t type) {
    const TypeInfo *info = find(type);
    return info && info->integer;
}

// The 16-bit formats are LibreDNN's own (src/core/numeric_types.hpp), so the bench rounds as the
// library and its reference do.
uint16_t float_to_half(float value) { return half_from_float(value).bits; }

float half_to_float(uint16_t bits) { return librednn::half_to_float(Half{bits}); }

uint16_t float_to_bfloat16(float value) { return bfloat16_from_float(value).bits; }

float bfloat16_to_float(uint16_t bits) { return librednn::bfloat16_to_float(BFloat16{bits}); }

void encode(cudnnDataType_t type, const double *values, size_t count, void *out) {
    switch (type) {
        case CUDNN_DATA_FLOAT: {
            auto *p = static_cast<float *>(out);
            for (size_t i = 0; i < count; ++i) p[i] = static_cast<float>(values[i]);
            break;
        }
        case CUDNN_DATA_DOUBLE: std::memcpy(out, values, count * sizeof(double)); break;
        case CUDNN_DATA_HALF: {
            auto *p = static_cast<uint16_t *>(out);
            for (size_t i = 0; i < count; ++i) p[i] = float_to_half(static_cast<float>(values[i]));
            break;
        }
        case CUDNN_DATA_BFLOAT16: {
            auto *p = static_cast<uint16_t *>(out);
            for (size_t i = 0; i < count; ++i) p[i] = float_to_bfloat16(static_cast<float>(values[i]));
            break;
        }
        case CUDNN_DATA_INT8: {
            auto *p = static_cast<int8_t *>(out);
            for (size_t i = 0; i < count; ++i) p[i] = static_cast<int8_t>(saturate_round(values[i], -128, 127));
            break;
        }
        case CUDNN_DATA_UINT8: {
            auto *p = static_cast<uint8_t *>(out);
            for (size_t i = 0; i < count; ++i) p[i] = static_cast<uint8_t>(saturate_round(values[i], 0, 255));
            break;
        }
        case CUDNN_DATA_INT32: {
            auto *p = static_cast<int32_t *>(out);
            for (size_t i = 0; i < count; ++i)
                p[i] = static_cast<int32_t>(saturate_round(values[i], -2147483648.0, 2147483647.0));
            break;
        }
        default: break;
    }
}

void decode(cudnnDataType_t type, const void *in, size_t count, double *values) {
    switch (type) {
        case CUDNN_DATA_FLOAT: {
            auto *p = static_cast<const float *>(in);
            for (size_t i = 0; i < count; ++i) values[i] = p[i];
            break;
        }
        case CUDNN_DATA_DOUBLE: std::memcpy(values, in, count * sizeof(double)); break;
        case CUDNN_DATA_HALF: {
            auto *p = static_cast<const uint16_t *>(in);
            for (size_t i = 0; i < count; ++i) values[i] = half_to_float(p[i]);
            break;
        }
        case CUDNN_DATA_BFLOAT16: {
            auto *p = static_cast<const uint16_t *>(in);
            for (size_t i = 0; i < count; ++i) values[i] = bfloat16_to_float(p[i]);
            break;
        }
        case CUDNN_DATA_INT8: {
            auto *p = static_cast<const int8_t *>(in);
            for (size_t i = 0; i < count; ++i) values[i] = p[i];
            break;
        }
        case CUDNN_DATA_UINT8: {
            auto *p = static_cast<const uint8_t *>(in);
            for (size_t i = 0; i < count; ++i) values[i] = p[i];
            break;
        }
        case CUDNN_DATA_INT32: {
            auto *p = static_cast<const int32_t *>(in);
            for (size_t i = 0; i < count; ++i) values[i] = p[i];
            break;
        }
        default:
            for (size_t i = 0; i < count; ++i) values[i] = std::nan("");
            break;
    }
}

uint64_t Random::next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

double Random::uniform(double low, double high) {
    return low + (high - low) * (static_cast<double>(next() >> 11) * (1.0 / 9007199254740992.0));
}

std::vector<double> random_values(cudnnDataType_t type, Fill fill, size_t count, uint64_t seed) {
    Random random(seed);
    std::vector<double> values(count);
    const bool integer = is_integer_type(type);
    for (double &v : values) {
        if (integer)
            v = fill == Fill::positive ? std::floor(random.uniform(1, 9)) : std::floor(random.uniform(-8, 9));
        else
            v = fill == Fill::positive ? random.uniform(0.5, 1.5)
                : fill == Fill::small  ? random.uniform(-0.1, 0.1)
                                       : random.uniform(-1, 1);
    }
    // Round through the element type so that the values are exactly what the library will read.
    if (!integer && type != CUDNN_DATA_DOUBLE && type != CUDNN_DATA_FLOAT) {
        std::vector<uint16_t> rounded(count);
        encode(type, values.data(), count, rounded.data());
        decode(type, rounded.data(), count, values.data());
    }
    return values;
}

}  // namespace librednn::bench
