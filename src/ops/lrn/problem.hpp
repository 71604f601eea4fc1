// A cross-channel LRN problem (cudnnLRNCrossChannelForward / Backward) as a value, with its buffers and
// its problem string ("op=lrn dir=fwd dtype=half dims=... lrn_n=5 lrn_alpha=0.0001 lrn_beta=0.75
// lrn_k=2 alpha=1 beta=0", which librednn-bench runs).
//
// x, y, dy, dx [N, C, spatial...]. Channel c's window is c - floor((n - 1) / 2) ... c + n - 1 -
// floor((n - 1) / 2), clipped to the channels; s_c = k + lrn_alpha / n * sum x^2 over it and
// y_c = x_c * s_c^-lrn_beta (src/reference/lrn.hpp has the backward formula).
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <string>

namespace librednn {

struct LrnProblem {
    Direction direction = Direction::forward;
    unsigned n = 5;
    double lrn_alpha = 1e-4, lrn_beta = 0.75, lrn_k = 2.0;
    // Forward: y = alpha * lrn(x) + beta * y. Backward: dx = alpha * gradient + beta * dx, from x and dy
    // (cuDNN's call passes y too; its dims are checked, its values not needed).
    TensorGeometry x, y, dy, dx;
    double alpha = 1.0, beta = 0.0;
    bool in_place = false;  // y is x's memory (dx dy's): the result overwrites an input it still needs

    const TensorGeometry &result() const { return direction == Direction::forward ? y : dx; }
    // The window's channels behind and ahead of its centre.
    int behind() const { return (static_cast<int>(n) - 1) / 2; }
    int ahead() const { return static_cast<int>(n) - 1 - behind(); }
    bool operator==(const LrnProblem &other) const;
};

struct LrnBuffers {
    const void *x = nullptr;
    const void *dy = nullptr;
    void *result = nullptr;  // y forward, dx backward; read too when beta != 0
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const LrnProblem &problem, const LrnBuffers &buffers);

// lrn_n= lrn_alpha= lrn_beta= lrn_k=: the LRN descriptor's values, which LRN and divisive normalisation
// problems both carry (defaults 5, 1e-4, 0.75, 2; lrn_n within CUDNN_LRN_MIN_N ... CUDNN_LRN_MAX_N).
void write_lrn_parameters(ProblemString *out, unsigned n, double alpha, double beta, double k);
bool read_lrn_parameters(const ProblemString &in, unsigned *n, double *alpha, double *beta, double *k,
                         std::string *error);

ProblemString to_problem_string(const LrnProblem &problem);
bool parse_lrn_problem(const ProblemString &text, LrnProblem *problem, std::string *error);

}  // namespace librednn
