// How far an operation's result may be from the reference, per output data type. Fixed here, justified
// once, never loosened to make a test pass.
//
// The reference computes in double and rounds once to the output type. A solver computes in float
// (double for double data) and rounds once too, so an element may differ by
//   (1) the output rounding: the two unrounded values straddle a rounding boundary, so the results
//       can be one unit in the last place (ulp) of the output type apart; and
//   (2) the solver's own compute error: a few float ulps per operation (the libm/CUDA exp, tanh,
//       ... are within 2 ulps; blending with alpha and beta adds two roundings), relative to the
//       magnitude of the terms, not of the result (alpha*f(x) and beta*y may cancel).
// Reductions add (3): summing n terms in the compute type errs by at most (n - 1) * eps * sum|term|.
#pragma once

#include <cudnn.h>

#include <cmath>

namespace librednn::test {

struct Tolerance {
    double output_ulps;    // (1): units of the output type's last place, relative to |reference|
    double unit_roundoff;  // the output type's relative spacing, 2^-(fraction bits)
    double compute_eps;    // (2): allowed compute error per unit of magnitude
    double absolute;       // below this nothing is distinguishable (the type's smallest subnormal)
};

inline Tolerance tolerance_for(cudnnDataType_t output_type) {
    // 16 float ulps (2^-24 each) cover the transcendental function (<= 2 ulps), the blend (2 roundings)
    // and the conversions of inputs, with margin for the CUDA intrinsics the GPU solvers may use.
    constexpr double float_compute = 16.0 * 0x1p-24;
    switch (output_type) {
        case CUDNN_DATA_DOUBLE: return {1.0, 0x1p-52, 16.0 * 0x1p-53, 0x1p-1074};
        case CUDNN_DATA_FLOAT: return {1.0, 0x1p-23, float_compute, 0x1p-149};
        case CUDNN_DATA_HALF: return {1.0, 0x1p-10, float_compute, 0x1p-24};
        case CUDNN_DATA_BFLOAT16: return {1.0, 0x1p-7, float_compute, 0x1p-133};
        default:
            // Integers: a float-computed value within compute error of a .5 boundary may round the
            // other way, one unit apart.
            return {0.0, 0.0, float_compute, 1.0};
    }
}

// The largest |out - ref| allowed for one element with reference value `ref`, when the terms that
// produced it are at most `magnitude` in size.
inline double allowed_error(const Tolerance &tolerance, double ref, double magnitude) {
    return tolerance.output_ulps * tolerance.unit_roundoff * std::fabs(ref) + tolerance.compute_eps * magnitude +
           tolerance.absolute;
}

}  // namespace librednn::test
