// The reference activation: naive, in double, one element at a time. It is the specification the
// host and CUDA solvers are tested against.
#pragma once

#include "ops/activation/problem.hpp"

namespace librednn::reference {

// f(x) of one activation (NaN rules in docs/NUMERICS.md).
double activation_value(cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt, double coef, double swish_beta,
                        double x);

// f'(x) * dy, with f' taken from y for SIGMOID and TANH and from x otherwise.
double activation_gradient(cudnnActivationMode_t mode, cudnnNanPropagation_t nan_opt, double coef, double swish_beta,
                           double x, double y, double dy);

// Runs `problem` on host memory: y = alpha * f(x) + beta * y, or dx = alpha * f'(x) * dy + beta * dx.
// With beta == 0 the output is never read.
void activation(const ActivationProblem &problem, const ActivationBuffers &buffers);

}  // namespace librednn::reference
