// Reference activations in double.
#include "reference/activation.hpp"

#include "ops/common/element_access.hpp"

#include <cmath>

namespace librednn::reference {

namespace {

double sigmoid(double x) { return 1.0 / (1.0 + std::exp(-x)); }

}  // namespace

double activation_value(cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt, double coef, double swish_beta,
                        double x) {
    // The NaN option belongs to the modes built from max/min (RELU, CLIPPED_RELU): without
    // propagation a NaN input gives 0, as max(x, 0) on the GPU does. The other modes carry NaN.
    const bool nan_to_zero = nan_opt == CUDNN_NOT_PROPAGATE_NAN && std::isnan(x);
    switch (mode) {
        case CUDNN_ACTIVATION_SIGMOID: return sigmoid(x);
        case CUDNN_ACTIVATION_RELU:
            if (nan_to_zero) return 0.0;
            return x > 0.0 || std::isnan(x) ? x : 0.0;
        case CUDNN_ACTIVATION_TANH: return std::tanh(x);
        case CUDNN_ACTIVATION_CLIPPED_RELU:
            if (nan_to_zero) return 0.0;
            if (std::isnan(x)) return x;
            return x <= 0.0 ? 0.0 : (x >= coef ? coef : x);
        case CUDNN_ACTIVATION_ELU: return x > 0.0 ? x : coef * std::expm1(x);
        case CUDNN_ACTIVATION_IDENTITY: return x;
        case CUDNN_ACTIVATION_SWISH: return x * sigmoid(swish_beta * x);
    }
    return std::nan("");
}

double activation_gradient(cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt, double coef, double swish_beta,
                           double x, double y, double dy) {
    const bool nan_to_zero = nan_opt == CUDNN_NOT_PROPAGATE_NAN && std::isnan(x);
    switch (mode) {
        case CUDNN_ACTIVATION_SIGMOID: return dy * y * (1.0 - y);
        case CUDNN_ACTIVATION_RELU:
            if (nan_to_zero) return 0.0;
            if (std::isnan(x)) return x;
            return x > 0.0 ? dy : 0.0;
        case CUDNN_ACTIVATION_TANH: return dy * (1.0 - y * y);
        case CUDNN_ACTIVATION_CLIPPED_RELU:
            if (nan_to_zero) return 0.0;
            if (std::isnan(x)) return x;
            return x > 0.0 && x < coef ? dy : 0.0;
        case CUDNN_ACTIVATION_ELU: return x > 0.0 ? dy : dy * coef * std::exp(x);
        case CUDNN_ACTIVATION_IDENTITY: return dy;
        case CUDNN_ACTIVATION_SWISH: {
            // d/dx [x s(bx)] = s(bx) + b x s(bx) (1 - s(bx))
            const double s = sigmoid(swish_beta * x);
            return dy * (s + swish_beta * x * s * (1.0 - s));
        }
    }
    return std::nan("");
}

void activation(const ActivationProblem &problem, const ActivationBuffers &buffers) {
    const bool forward = problem.direction == Direction::forward;
    const TensorGeometry &out = problem.result();
    int64_t index[kMaxDims] = {};
    do {
        double value = 0.0;
        const double x = load_scalar(buffers.x, problem.x.dtype, problem.x.offset(index));
        if (forward) {
            value = activation_value(problem.mode, problem.nan_opt, problem.coef, problem.swish_beta, x);
        } else {
            const double y = load_scalar(buffers.y, problem.y.dtype, problem.y.offset(index));
            const double dy = load_scalar(buffers.dy, problem.dy.dtype, problem.dy.offset(index));
            value = activation_gradient(problem.mode, problem.nan_opt, problem.coef, problem.swish_beta, x, y, dy);
        }
        const int64_t at = out.offset(index);
        double result = problem.alpha * value;
        if (problem.beta != 0.0) result += problem.beta * load_scalar(buffers.result, out.dtype, at);
        store_scalar(buffers.result, out.dtype, at, result);
    } while (next_index(index, out.dims, out.nb_dims));
}

}  // namespace librednn::reference
