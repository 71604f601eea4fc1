// The host's activation arithmetic: f and f' per mode in the compute type (float, or double for
// double data), and the row loops the packed and strided solvers share.
#pragma once

#include "host/common/host_element.hpp"
#include "ops/activation/problem.hpp"

#include <cmath>
#include <cstdint>

namespace librednn::host {

// One activation with its constants, in compute type C.
template <class C>
struct ActivationMath {
    cudnnActivationMode_t mode;
    bool nan_to_zero;  // CUDNN_NOT_PROPAGATE_NAN: RELU and CLIPPED_RELU map NaN to 0
    C coef;
    C swish_beta;

    static C sigmoid(C x) { return C(1) / (C(1) + std::exp(-x)); }

    C forward(C x) const {
        switch (mode) {
            case CUDNN_ACTIVATION_SIGMOID: return sigmoid(x);
            case CUDNN_ACTIVATION_RELU:
                if (std::isnan(x)) return nan_to_zero ? C(0) : x;
                return x > C(0) ? x : C(0);
            case CUDNN_ACTIVATION_TANH: return std::tanh(x);
            case CUDNN_ACTIVATION_CLIPPED_RELU:
                if (std::isnan(x)) return nan_to_zero ? C(0) : x;
                return x <= C(0) ? C(0) : (x >= coef ? coef : x);
            case CUDNN_ACTIVATION_ELU: return x > C(0) ? x : coef * std::expm1(x);
            case CUDNN_ACTIVATION_IDENTITY: return x;
            case CUDNN_ACTIVATION_SWISH: return x * sigmoid(swish_beta * x);
        }
        return x;
    }

    C backward(C x, C y, C dy) const {
        switch (mode) {
            case CUDNN_ACTIVATION_SIGMOID: return dy * y * (C(1) - y);
            case CUDNN_ACTIVATION_RELU:
                if (std::isnan(x)) return nan_to_zero ? C(0) : x;
                return x > C(0) ? dy : C(0);
            case CUDNN_ACTIVATION_TANH: return dy * (C(1) - y * y);
            case CUDNN_ACTIVATION_CLIPPED_RELU:
                if (std::isnan(x)) return nan_to_zero ? C(0) : x;
                return x > C(0) && x < coef ? dy : C(0);
            case CUDNN_ACTIVATION_ELU: return x > C(0) ? dy : dy * coef * std::exp(x);
            case CUDNN_ACTIVATION_IDENTITY: return dy;
            case CUDNN_ACTIVATION_SWISH: {
                const C s = sigmoid(swish_beta * x);
                return dy * (s + swish_beta * x * s * (C(1) - s));
            }
        }
        return dy;
    }
};

template <class C>
ActivationMath<C> activation_math(const ActivationProblem &problem) {
    return ActivationMath<C>{problem.mode, problem.nan_opt == CUDNN_NOT_PROPAGATE_NAN, static_cast<C>(problem.coef),
                             static_cast<C>(problem.swish_beta)};
}

// out[j] = alpha * f(x[j]) + beta * out[j] over one row (beta == 0: out is not read).
template <class T>
void activation_forward_row(const ActivationMath<typename HostElement<T>::Compute> &math, const T *x, int64_t x_step,
                            T *out, int64_t out_step, int64_t count, typename HostElement<T>::Compute alpha,
                            typename HostElement<T>::Compute beta) {
    using E = HostElement<T>;
    using C = typename E::Compute;
    for (int64_t j = 0; j < count; ++j) {
        C value = alpha * math.forward(E::load(x[j * x_step]));
        if (beta != C(0)) value += beta * E::load(out[j * out_step]);
        out[j * out_step] = E::store(value);
    }
}

// dx[j] = alpha * f'(x[j], y[j]) * dy[j] + beta * dx[j] over one row.
template <class T>
void activation_backward_row(const ActivationMath<typename HostElement<T>::Compute> &math, const T *x, int64_t x_step,
                             const T *y, int64_t y_step, const T *dy, int64_t dy_step, T *dx, int64_t dx_step,
                             int64_t count, typename HostElement<T>::Compute alpha,
                             typename HostElement<T>::Compute beta) {
    using E = HostElement<T>;
    using C = typename E::Compute;
    for (int64_t j = 0; j < count; ++j) {
        C value = alpha * math.backward(E::load(x[j * x_step]), E::load(y[j * y_step]), E::load(dy[j * dy_step]));
        if (beta != C(0)) value += beta * E::load(dx[j * dx_step]);
        dx[j * dx_step] = E::store(value);
    }
}

}  // namespace librednn::host
