// How far an operation's result may be from the reference: the error model of docs/NUMERICS.md ("How
// the tests bound errors"), in one place. Bounds follow from the arithmetic; never loosen one to make a
// test pass.
//
// The reference computes in double and rounds once to the output type. A solver computes in float
// (double for double data) and rounds once too, so an element may differ by
//   (1) the output rounding: the two unrounded values straddle a rounding boundary, so the results
//       can be one unit in the last place (ulp) of the output type apart; and
//   (2) the solver's compute error before that rounding, which each test derives from the arithmetic
//       of its operation: a few roundings per element-wise step, relative to the magnitude of the
//       terms (alpha * f(x) and beta * y may cancel), and for a sum of n terms sum_error() below.
// Integer outputs are exact, except where the exact value lies within the compute error of a rounding
// tie: then either neighbour is right (matches_reference takes the exact value to decide).
#pragma once

#include <cudnn.h>

#include <algorithm>
#include <cmath>

namespace librednn::test {

struct Tolerance {
    double output_ulps;    // (1): units of the output type's last place, relative to |reference|
    double unit_roundoff;  // the output type's relative spacing, 2^-(fraction bits)
    double compute_eps;    // (2) for element-wise steps: allowed error per unit of term magnitude
    double absolute;       // below this nothing is distinguishable (the type's smallest subnormal)
};

// 16 float ulps (2^-24 each) cover an element-wise step: the transcendental function (<= 2 ulps in
// libm, <= 2 + 1.16|x| for CUDA's fast exp at the |x| <= 8 the tests use), the blend with alpha and beta
// (2 roundings), and the conversions of inputs.
constexpr double kFloatStepEps = 16.0 * 0x1p-24;
constexpr double kDoubleStepEps = 16.0 * 0x1p-53;

inline Tolerance tolerance_for(cudnnDataType_t output_type) {
    switch (output_type) {
        case CUDNN_DATA_DOUBLE: return {1.0, 0x1p-52, kDoubleStepEps, 0x1p-1074};
        case CUDNN_DATA_FLOAT: return {1.0, 0x1p-23, kFloatStepEps, 0x1p-149};
        case CUDNN_DATA_HALF: return {1.0, 0x1p-10, kFloatStepEps, 0x1p-24};
        case CUDNN_DATA_BFLOAT16: return {1.0, 0x1p-7, kFloatStepEps, 0x1p-133};
        // Integers: exact, up to a tie (matches_reference); computed in float.
        default: return {0.0, 0.0, kFloatStepEps, 0.0};
    }
}

// The unit roundoff u of the type a solver accumulates in: float (2^-24) for every type but double
// (2^-53), whatever the host does (it accumulates in double, which only makes it more accurate).
inline double accumulation_roundoff(cudnnDataType_t data_or_compute_type) {
    return data_or_compute_type == CUDNN_DATA_DOUBLE ? 0x1p-53 : 0x1p-24;
}

// The lambda of the probabilistic bound. Higham and Mary ("A new approach to probabilistic rounding
// error analysis", SIAM J. Sci. Comput. 41, 2019) show that with rounding errors independent and of
// mean zero a sum errs by more than lambda sqrt(n) u sum|a| with probability of order
// n exp(-lambda^2 / 2), for any summation order (blocks and trees only do better). lambda = 6 makes that
// about 1e-8 n, a union bound over the partial sums that is far from tight: real errors of random data
// stay well inside it.
constexpr double kProbabilisticLambda = 6.0;

// A bound on |computed - exact| for a sum of n terms whose absolute values add up to `sum_abs`,
// accumulated with unit roundoff u in any order: the smaller of the deterministic bound
// gamma_(n-1) sum|a| = (n-1) u / (1 - (n-1) u) sum|a| and the probabilistic lambda sqrt(n) u sum|a|.
// A product of n factors errs relatively by the same bound with sum_abs = |product|.
inline double sum_error(double n, double sum_abs, double u) {
    if (n <= 1.0) return 0.0;
    const double k = (n - 1.0) * u;
    const double deterministic = k < 0.5 ? k / (1.0 - k) : HUGE_VAL;
    return std::min(deterministic, kProbabilisticLambda * std::sqrt(n) * u) * sum_abs;
}

// The largest |out - ref| allowed for one element of a floating-point output with reference value
// `ref`, when the solver's compute error before the output rounding is at most `compute_error`.
inline double allowed_error_for(const Tolerance &tolerance, double ref, double compute_error) {
    return tolerance.output_ulps * tolerance.unit_roundoff * std::fabs(ref) + compute_error + tolerance.absolute;
}

// The same for an element-wise step whose terms are at most `magnitude` in size.
inline double allowed_error(const Tolerance &tolerance, double ref, double magnitude) {
    return allowed_error_for(tolerance, ref, tolerance.compute_eps * magnitude);
}

// An integer output `got` for an element whose exact value is `exact`: right when it is the rounding of
// some value within `compute_error` of `exact`, saturated to the type's range. Away from a tie that is
// one integer (the reference's); within the compute error of a tie, either neighbour.
inline bool integer_within_rounding(double got, double exact, double compute_error, cudnnDataType_t type) {
    double low = -128.0, high = 127.0;  // int8 and its vector types
    if (type == CUDNN_DATA_UINT8 || type == CUDNN_DATA_UINT8x4) low = 0.0, high = 255.0;
    if (type == CUDNN_DATA_INT32) low = -2147483648.0, high = 2147483647.0;
    if (std::isnan(exact)) return got == 0.0;  // NaN stores as 0
    const double from = std::clamp(exact - compute_error, low, high);
    const double to = std::clamp(exact + compute_error, low, high);
    return got >= std::ceil(from - 0.5) && got <= std::floor(to + 0.5);
}

}  // namespace librednn::test
