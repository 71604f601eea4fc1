// A divisive normalisation problem (cudnnDivisiveNormalizationForward / Backward) as a value, with its
// buffers and its problem string ("op=divnorm dir=fwd dtype=float dims=... lrn_n=5 lrn_alpha=0.0001
// lrn_beta=0.75 lrn_k=2 alpha=1 beta=0", which librednn-bench runs).
//
// x, means, temp, temp2 (and backward dy) share xDesc; y, or backward dx and dMeans (dXdMeansDesc),
// have x's dims and type. With d spatial dims (2 or 3) and c = lrn_alpha / n^d,
//   s_p = k + c * sum over the window W(p) of (x_j - m_p)^2,   y_p = x_p * s_p^-lrn_beta,
// W(p) the n^d box of p's image and channel starting floor((n - 1) / 2) behind p, clipped to the image
// (src/reference/divisive_norm.hpp has the backward formulas).
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <string>

namespace librednn {

struct DivNormProblem {
    Direction direction = Direction::forward;
    unsigned n = 5;
    double lrn_alpha = 1e-4, lrn_beta = 0.75, lrn_k = 2.0;
    // x: x, means, temp, temp2, and backward dy. y: the forward's output. dx: backward's dx and dMeans.
    TensorGeometry x, y, dx;
    bool means = true;    // false: means is NULL, read as zeros
    bool d_means = true;  // backward: false when dMeans is NULL (not written)
    // Forward: y = alpha * result + beta * y. Backward: dx (and dMeans) = alpha * gradient + beta * dx.
    double alpha = 1.0, beta = 0.0;
    bool in_place = false;  // an output is an input's memory: the solvers read that input from temp/temp2

    const TensorGeometry &result() const { return direction == Direction::forward ? y : dx; }
    int spatial_dims() const { return x.nb_dims - 2; }
    // The window's positions behind and ahead of p in each spatial dim.
    int behind() const { return (static_cast<int>(n) - 1) / 2; }
    int ahead() const { return static_cast<int>(n) - 1 - behind(); }
    // c = lrn_alpha / n^d.
    double scale() const;
    bool operator==(const DivNormProblem &other) const;
};

struct DivNormBuffers {
    const void *x = nullptr;
    const void *means = nullptr;  // may be NULL: zeros
    const void *dy = nullptr;     // backward
    void *temp = nullptr;         // scratch with xDesc (x-sized, x's type); its contents after a call are undefined
    void *temp2 = nullptr;
    void *result = nullptr;   // y forward, dx backward; read too when beta != 0
    void *d_means = nullptr;  // backward; may be NULL: not written
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const DivNormProblem &problem, const DivNormBuffers &buffers);

ProblemString to_problem_string(const DivNormProblem &problem);
bool parse_divnorm_problem(const ProblemString &text, DivNormProblem *problem, std::string *error);

// In place, an output overwrites elements of an input that other outputs still read. Every input (x,
// means, dy) whose memory is an output's is copied, as bytes over xDesc's span, into temp or temp2 (they
// have xDesc too) and read from there; two temporaries always suffice, since two outputs can be at
// most two distinct inputs' memory. A backend runs `copies` (temp's first) before computing from
// `buffers`.
struct DivNormCopy {
    const void *from = nullptr;
    void *to = nullptr;
};
struct DivNormPlan {
    DivNormBuffers buffers;  // the inputs an output aliases replaced by their copies
    DivNormCopy copies[2];
    int copy_count = 0;
    size_t copy_bytes = 0;  // of each copy: xDesc's span
};
DivNormPlan plan_divnorm_buffers(const DivNormProblem &problem, const DivNormBuffers &buffers);

}  // namespace librednn
