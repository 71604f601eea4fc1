// Element types of the host backend: how each storage type loads into its compute type (float, or
// double for double and int32 data) and stores back (round to nearest even, integers saturate);
// from_double rounds a double once, straight to the type. And the switch from a cudnnDataType_t to
// the C++ type.
#pragma once

#include "core/numeric_types.hpp"

#include <cudnn.h>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace librednn::host {

template <class T>
struct HostElement;

template <>
struct HostElement<float> {
    using Compute = float;
    static float load(float value) { return value; }
    static float store(float value) { return value; }
    static float from_double(double value) { return static_cast<float>(value); }
};

template <>
struct HostElement<double> {
    using Compute = double;
    static double load(double value) { return value; }
    static double store(double value) { return value; }
    static double from_double(double value) { return value; }
};

template <>
struct HostElement<Half> {
    using Compute = float;
    static float load(Half value) { return half_to_float(value); }
    static Half store(float value) { return half_from_float(value); }
    static Half from_double(double value) { return half_from_double(value); }
};

template <>
struct HostElement<BFloat16> {
    using Compute = float;
    static float load(BFloat16 value) { return bfloat16_to_float(value); }
    static BFloat16 store(float value) { return bfloat16_from_float(value); }
    static BFloat16 from_double(double value) { return bfloat16_from_double(value); }
};

template <>
struct HostElement<int8_t> {
    using Compute = float;
    static float load(int8_t value) { return value; }
    static int8_t store(float value) { return saturate_to_integer<int8_t>(value); }
    static int8_t from_double(double value) { return saturate_to_integer<int8_t>(value); }
};

template <>
struct HostElement<uint8_t> {
    using Compute = float;
    static float load(uint8_t value) { return value; }
    static uint8_t store(float value) { return saturate_to_integer<uint8_t>(value); }
    static uint8_t from_double(double value) { return saturate_to_integer<uint8_t>(value); }
};

// int32 computes in double: float would round values above 2^24.
template <>
struct HostElement<int32_t> {
    using Compute = double;
    static double load(int32_t value) { return value; }
    static int32_t store(double value) { return saturate_to_integer<int32_t>(value); }
    static int32_t from_double(double value) { return saturate_to_integer<int32_t>(value); }
};

template <class T>
struct TypeTag {
    using type = T;
};

// Calls body(TypeTag<T>{}) with the C++ type of one scalar of `type` (vectorised int8 types give
// their scalar type) and returns true; false for types the host backend does not compute on.
template <class Body>
bool with_host_type(cudnnDataType_t type, Body &&body) {
    switch (type) {
        case CUDNN_DATA_FLOAT: body(TypeTag<float>{}); return true;
        case CUDNN_DATA_DOUBLE: body(TypeTag<double>{}); return true;
        case CUDNN_DATA_HALF: body(TypeTag<Half>{}); return true;
        case CUDNN_DATA_BFLOAT16: body(TypeTag<BFloat16>{}); return true;
        case CUDNN_DATA_INT8:
        case CUDNN_DATA_INT8x4:
        case CUDNN_DATA_INT8x32: body(TypeTag<int8_t>{}); return true;
        case CUDNN_DATA_UINT8:
        case CUDNN_DATA_UINT8x4: body(TypeTag<uint8_t>{}); return true;
        case CUDNN_DATA_INT32: body(TypeTag<int32_t>{}); return true;
        default: return false;
    }
}

// The same, restricted to the floating-point types (activation, softmax, ...).
template <class Body>
bool with_floating_point_type(cudnnDataType_t type, Body &&body) {
    switch (type) {
        case CUDNN_DATA_FLOAT: body(TypeTag<float>{}); return true;
        case CUDNN_DATA_DOUBLE: body(TypeTag<double>{}); return true;
        case CUDNN_DATA_HALF: body(TypeTag<Half>{}); return true;
        case CUDNN_DATA_BFLOAT16: body(TypeTag<BFloat16>{}); return true;
        default: return false;
    }
}

}  // namespace librednn::host
