// The value of each element-wise operation at one element, in the compute type C (float, or double
// for double and int32 data): activation functions and their gradients, op-tensor operators, scaling.
// Used with constant kind and mode by the typed flat kernels and with runtime ones by the strided kernel.
#pragma once

#include "cuda/common/device_common.cuh"
#include "cuda/common/elementwise_plan.hpp"

namespace librednn::cuda {

template <class C>
struct ElementwiseParams {
    C alpha, alpha2, beta, coef, swish_beta;
    int kind, mode;
    int propagate_nan;
    int blend;
};

template <class C>
ElementwiseParams<C> make_elementwise_params(const ElementwiseCall &call, const ElementwisePlan &plan) {
    ElementwiseParams<C> params;
    params.alpha = static_cast<C>(call.alpha);
    params.alpha2 = static_cast<C>(call.alpha2);
    params.beta = static_cast<C>(call.beta);
    params.coef = static_cast<C>(call.coef);
    params.swish_beta = static_cast<C>(call.swish_beta);
    params.kind = static_cast<int>(call.kind);
    params.mode = call.mode;
    params.propagate_nan = call.propagate_nan ? 1 : 0;
    params.blend = plan.blend ? 1 : 0;
    return params;
}

template <class C>
__device__ __forceinline__ C activation_value(int mode, C x, const ElementwiseParams<C> &p) {
    switch (mode) {
        case CUDNN_ACTIVATION_SIGMOID: return C(1) / (C(1) + math_exp(-x));
        // fmax/fmin return the number when one operand is NaN: that is "not propagate" (relu(NaN) = 0).
        case CUDNN_ACTIVATION_RELU: return p.propagate_nan && math_isnan(x) ? x : math_fmax(x, C(0));
        case CUDNN_ACTIVATION_TANH: return math_tanh(x);
        case CUDNN_ACTIVATION_CLIPPED_RELU:
            return p.propagate_nan && math_isnan(x) ? x : math_fmin(math_fmax(x, C(0)), p.coef);
        case CUDNN_ACTIVATION_ELU: return x > C(0) ? x : p.coef * math_expm1(x);
        case CUDNN_ACTIVATION_SWISH: return x / (C(1) + math_exp(-p.swish_beta * x));
        default: return x;  // identity
    }
}

// dy * f'(x), written with whichever of x and y the derivative is cheapest in.
template <class C>
__device__ __forceinline__ C activation_gradient(int mode, C y, C dy, C x, const ElementwiseParams<C> &p) {
    switch (mode) {
        case CUDNN_ACTIVATION_SIGMOID: return dy * y * (C(1) - y);
        case CUDNN_ACTIVATION_RELU: return p.propagate_nan && math_isnan(x) ? x : (x > C(0) ? dy : C(0));
        case CUDNN_ACTIVATION_TANH: return dy * (C(1) - y * y);
        case CUDNN_ACTIVATION_CLIPPED_RELU:
            return p.propagate_nan && math_isnan(x) ? x : (x > C(0) && x < p.coef ? dy : C(0));
        case CUDNN_ACTIVATION_ELU: return x > C(0) ? dy : dy * p.coef * math_exp(x);
        case CUDNN_ACTIVATION_SWISH: {
            const C s = C(1) / (C(1) + math_exp(-p.swish_beta * x));
            return dy * (s + p.swish_beta * x * s * (C(1) - s));
        }
        default: return dy;  // identity
    }
}

// a and b already carry alpha1 and alpha2.
template <class C>
__device__ __forceinline__ C binary_value(int op, C a, C b, const ElementwiseParams<C> &p) {
    switch (op) {
        case CUDNN_OP_TENSOR_ADD: return a + b;
        case CUDNN_OP_TENSOR_MUL: return a * b;
        case CUDNN_OP_TENSOR_MIN: return p.propagate_nan && (math_isnan(a) || math_isnan(b)) ? a + b : math_fmin(a, b);
        case CUDNN_OP_TENSOR_MAX: return p.propagate_nan && (math_isnan(a) || math_isnan(b)) ? a + b : math_fmax(a, b);
        case CUDNN_OP_TENSOR_SQRT: return math_sqrt(a);
        default: return C(1) - a;  // not
    }
}

// alpha * op(inputs), before blending with beta * out.
template <class C>
__device__ __forceinline__ C evaluate(int kind, int mode, const ElementwiseParams<C> &p, C in0, C in1, C in2) {
    switch (static_cast<ElementwiseKind>(kind)) {
        case ElementwiseKind::activation_forward: return p.alpha * activation_value(mode, in0, p);
        case ElementwiseKind::activation_backward: return p.alpha * activation_gradient(mode, in0, in1, in2, p);
        case ElementwiseKind::binary: return binary_value(mode, p.alpha * in0, p.alpha2 * in1, p);
        default: return p.alpha * in0;  // copy
    }
}

}  // namespace librednn::cuda
