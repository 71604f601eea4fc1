// cudnnDivisiveNormalizationForward and Backward against the reference on random 4-d and 5-d shapes
// (one-pixel images, windows wider than the image, even and odd n), layouts, types, parameters, means
// and dMeans given or NULL, alpha and beta; larger images that span several CUDA tiles; the backward
// pass against central differences of the forward in double; the values NVIDIA's library gave the
// probe (bench/results/2026-12-01-h200-divnorm-probe/); in place; the rejections; the problem string.
#include "reference/divisive_norm.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/divnorm/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF};

class NormDescriptor {
public:
    NormDescriptor(unsigned n, double alpha, double beta, double k) {
        EXPECT_EQ(cudnnCreateLRNDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetLRNDescriptor(desc_, n, alpha, beta, k), CUDNN_STATUS_SUCCESS);
    }
    explicit NormDescriptor(const DivNormProblem &p) : NormDescriptor(p.n, p.lrn_alpha, p.lrn_beta, p.lrn_k) {}
    ~NormDescriptor() { cudnnDestroyLRNDescriptor(desc_); }
    NormDescriptor(const NormDescriptor &) = delete;
    NormDescriptor &operator=(const NormDescriptor &) = delete;
    operator cudnnLRNDescriptor_t() const { return desc_; }

private:
    cudnnLRNDescriptor_t desc_ = nullptr;
};

constexpr cudnnDivNormMode_t kMode = CUDNN_DIVNORM_PRECOMPUTED_MEANS;

// dims: N and C up to 3, spatial extents up to 7 (4-d) or 4 (5-d), sometimes a one-pixel image.
std::vector<int64_t> random_divnorm_dims(Random &rng, int nb_dims) {
    std::vector<int64_t> dims = {rng.integer(1, 2), rng.integer(1, 3)};
    const bool one_pixel = rng.integer(0, 7) == 0;
    for (int i = 2; i < nb_dims; ++i) dims.push_back(one_pixel ? 1 : rng.integer(1, nb_dims == 4 ? 7 : 4));
    return dims;
}

DivNormProblem random_problem(Random &rng, Direction direction) {
    DivNormProblem p;
    p.direction = direction;
    p.n = static_cast<unsigned>(rng.pick<int64_t>({1, 2, 3, 4, 5, rng.integer(6, 16)}));
    p.lrn_alpha = rng.pick<double>({1e-4, 0.5, 2.0, rng.uniform(0.1, 3.0)});
    p.lrn_beta = rng.pick<double>({0.75, 0.01, rng.uniform(0.01, 2.0)});
    p.lrn_k = rng.pick<double>({2.0, 1.0, rng.uniform(0.5, 3.0)});
    const cudnnDataType_t type = rng.pick(kTypes);
    const int nb_dims = rng.coin() ? 4 : 5;
    const std::vector<int64_t> dims = random_divnorm_dims(rng, nb_dims);
    p.x = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    (direction == Direction::forward ? p.y : p.dx) = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    p.means = rng.integer(0, 3) != 0;
    p.d_means = direction == Direction::backward && rng.integer(0, 3) != 0;
    const bool in_double = type == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

reference::DivisiveNormParameters parameters_of(const DivNormProblem &p) {
    reference::DivisiveNormParameters norm;
    norm.n = p.n;
    norm.alpha = p.lrn_alpha;
    norm.beta = p.lrn_beta;
    norm.k = p.lrn_k;
    return norm;
}

reference::HostTensor double_copy(const HostTensor &t) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE,
                               std::vector<int64_t>(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims));
    copy.set_values(element_values(t));
    return copy;
}

// The windows over elements numbered row-major (next_index order), the dims seen as N, C, depth,
// height, width (depth 1 for 4-d tensors).
class Windows {
public:
    explicit Windows(const DivNormProblem &p) {
        const int pad = 5 - p.x.nb_dims;
        for (int i = 0; i < 5; ++i) {
            const int axis = i - pad;
            spatial_[i] = i >= 2 && axis >= 2;
            dims_[i] = i < 2 ? p.x.dims[i] : spatial_[i] ? p.x.dims[axis] : 1;
        }
        n_ = p.n;
        behind_ = p.behind();
    }
    int64_t count() const { return dims_[0] * dims_[1] * dims_[2] * dims_[3] * dims_[4]; }

    // Calls f(j) for each j of W(p) (forward window) or, `holders`, each p whose window holds q.
    template <class F>
    void visit(int64_t element, bool holders, F &&f) const {
        int64_t at[5];
        for (int i = 4; i >= 0; --i) {
            at[i] = element % dims_[i];
            element /= dims_[i];
        }
        int64_t first[5], last[5];
        for (int i = 0; i < 5; ++i) {
            first[i] = last[i] = at[i];
            if (!spatial_[i]) continue;
            const int64_t back = holders ? n_ - 1 - behind_ : behind_;
            const int64_t on = holders ? behind_ : n_ - 1 - behind_;
            first[i] = std::max<int64_t>(at[i] - back, 0);
            last[i] = std::min<int64_t>(at[i] + on, dims_[i] - 1);
        }
        int64_t j[5];
        for (j[0] = first[0]; j[0] <= last[0]; ++j[0])
            for (j[1] = first[1]; j[1] <= last[1]; ++j[1])
                for (j[2] = first[2]; j[2] <= last[2]; ++j[2])
                    for (j[3] = first[3]; j[3] <= last[3]; ++j[3])
                        for (j[4] = first[4]; j[4] <= last[4]; ++j[4])
                            f((((j[0] * dims_[1] + j[1]) * dims_[2] + j[2]) * dims_[3] + j[3]) * dims_[4] + j[4]);
    }

private:
    int64_t dims_[5];
    bool spatial_[5];
    int64_t n_, behind_;
};

// The error bounds (docs/NUMERICS.md, "Divisive normalisation"), per element before the blend, with u
// the compute type's unit roundoff and c = lrn_alpha / n^d:
// - s = k + c * Q, Q a sum of |W| squares of rounded differences: c (sum_error(|W|, Q) + 3uQ) + 3us (c,
//   k, the product and the add round);
// - s^-b: relative b rel_s, plus b u |ln s| (b itself rounds to the compute type), plus a step for the
//   power and the products (16u); g = dy x s^(-b-1) the same with b + 1;
// - dx = dy_q s_q^-b - 2bc sum g_p (x_q - m_p): the first term's error, each product's relative rel_g + 2u,
//   the sum's sum_error, and a step of both terms;
// - dMeans = 2bc g D, D a sum of |W| rounded differences: rel_g of it, u A + sum_error(|W|, A) on D
//   (A = sum |x_j - m_p|), and a step.
class Bounds {
public:
    Bounds(const DivNormProblem &p, const HostTensor &x, const HostTensor *means, const HostTensor *dy) : windows_(p) {
        const size_t count = static_cast<size_t>(windows_.count());
        const std::vector<double> xv = element_values(x);
        const std::vector<double> mv = means ? element_values(*means) : std::vector<double>(count, 0.0);
        const std::vector<double> dyv = dy ? element_values(*dy) : std::vector<double>(count, 0.0);
        const double u = accumulation_roundoff(p.x.dtype);
        const double step =
            tolerance_for(p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
        const double b = p.lrn_beta, c = p.lrn_alpha / std::pow(static_cast<double>(p.n), p.x.nb_dims - 2);
        const double factor = 2 * b * c;
        step_ = step;
        std::vector<double> s(count), rel_s(count), g(count), rel_g(count);
        forward_.resize(count);
        d_means_.resize(count);
        dx_.resize(count);
        for (size_t e = 0; e < count; ++e) {
            double q = 0, a = 0, d = 0, w = 0;
            windows_.visit(static_cast<int64_t>(e), false, [&](int64_t j) {
                const double v = xv[static_cast<size_t>(j)] - mv[e];
                q += v * v;
                a += std::fabs(v);
                d += v;
                w += 1;
            });
            s[e] = p.lrn_k + c * q;
            rel_s[e] = (c * (sum_error(w, q, u) + 3 * u * q) + 3 * u * s[e]) / s[e];
            const double exponent = b * u * std::fabs(std::log(s[e]));
            forward_[e] = std::fabs(xv[e] * std::pow(s[e], -b)) * (b * rel_s[e] + exponent + step);
            g[e] = dyv[e] * xv[e] * std::pow(s[e], -b - 1);
            rel_g[e] = (b + 1) * rel_s[e] + exponent + step;
            d_means_[e] = factor * (std::fabs(g[e] * d) * rel_g[e] + std::fabs(g[e]) * (u * a + sum_error(w, a, u))) +
                          step * std::fabs(factor * g[e] * d);
        }
        for (size_t e = 0; e < count; ++e) {
            const double t1 = dyv[e] * std::pow(s[e], -b);
            const double e1 = std::fabs(t1) * (b * rel_s[e] + b * u * std::fabs(std::log(s[e])) + step);
            double sum_abs = 0, terms_error = 0, r = 0;
            windows_.visit(static_cast<int64_t>(e), true, [&](int64_t pj) {
                const size_t pi = static_cast<size_t>(pj);
                const double tau = std::fabs(g[pi] * (xv[e] - mv[pi]));
                sum_abs += tau;
                terms_error += tau * (rel_g[pi] + 2 * u);
                r += 1;
            });
            dx_[e] = e1 + factor * (terms_error + sum_error(r, sum_abs, u)) + step * (std::fabs(t1) + factor * sum_abs);
        }
    }

    double step() const { return step_; }
    const std::vector<double> &forward() const { return forward_; }
    const std::vector<double> &dx() const { return dx_; }
    const std::vector<double> &d_means() const { return d_means_; }

private:
    Windows windows_;
    double step_ = 0;
    std::vector<double> forward_, dx_, d_means_;
};

// `out` (from the API) against alpha * exact + beta * initial, element by element within `errors`.
::testing::AssertionResult matches_blend(const DivNormProblem &p, const HostTensor &out, const HostTensor &initial,
                                         const std::vector<double> &exact, const std::vector<double> &errors,
                                         double step, const std::string &what) {
    const std::vector<double> old = element_values(initial);
    std::vector<ElementBound> bounds(exact.size());
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[e];
        bounds[e].exact = p.alpha * exact[e] + before;
        bounds[e].compute_error =
            std::fabs(p.alpha) * errors[e] + step * (std::fabs(p.alpha * exact[e]) + std::fabs(before));
        ref.set(index, bounds[e].exact);
        ++e;
    } while (next_index(index, out.geometry.dims, out.geometry.nb_dims));
    return matches_reference(out, ref, bounds, what);
}

HostTensor initial_output(Random &rng, const TensorGeometry &g, double beta) {
    HostTensor t(g);
    if (beta == 0.0) {
        poison(t);
    } else {
        fill_uniform(t, rng, -2.0, 2.0);
    }
    return t;
}

void check_against_reference(Random &rng, const DivNormProblem &p) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const bool forward = p.direction == Direction::forward;
    HostTensor x(p.x), means(p.x), dy(p.x), temp(p.x);
    fill_uniform(x, rng, -2.0, 2.0);
    fill_uniform(means, rng, -1.0, 1.0);
    fill_uniform(dy, rng, -2.0, 2.0);
    poison(temp);
    const HostTensor initial = initial_output(rng, p.result(), p.beta);
    // dMeans has dXdMeansDesc (backward only: forward, an unused buffer of x's).
    const TensorGeometry &d_means_geometry = forward ? p.x : p.dx;
    const HostTensor initial_d_means = initial_output(rng, d_means_geometry, p.beta);
    Handle handle;
    NormDescriptor desc(p);
    TensorDescriptor x_desc(p.x), out_desc(p.result());
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    DeviceBuffer x_buffer(x.bytes), means_buffer(means.bytes), dy_buffer(dy.bytes), temp_buffer(temp.bytes),
        temp2_buffer(temp.bytes), out(initial.bytes), d_means_out(initial_d_means.bytes);
    const void *means_pointer = p.means ? means_buffer.get() : nullptr;
    if (forward) {
        ASSERT_EQ(
            cudnnDivisiveNormalizationForward(handle, desc, kMode, alpha.get(), x_desc, x_buffer.get(), means_pointer,
                                              temp_buffer.get(), temp2_buffer.get(), beta.get(), out_desc, out.get()),
            CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    } else {
        ASSERT_EQ(
            cudnnDivisiveNormalizationBackward(handle, desc, kMode, alpha.get(), x_desc, x_buffer.get(), means_pointer,
                                               dy_buffer.get(), temp_buffer.get(), temp2_buffer.get(), beta.get(),
                                               out_desc, out.get(), p.d_means ? d_means_out.get() : nullptr),
            CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    HostTensor result(p.result()), result_d_means(d_means_geometry);
    result.bytes = out.download();
    result_d_means.bytes = d_means_out.download();

    const std::vector<int64_t> dims(p.x.dims, p.x.dims + p.x.nb_dims);
    reference::HostTensor exact(CUDNN_DATA_DOUBLE, dims), exact_d_means(CUDNN_DATA_DOUBLE, dims);
    const reference::HostTensor x_ref = double_copy(x), means_ref = double_copy(means), dy_ref = double_copy(dy);
    const reference::TensorView *means_view = p.means ? &means_ref.view() : nullptr;
    const Status status = forward
                              ? reference::divisive_norm_forward(parameters_of(p), 1.0, x_ref, means_view, 0.0, exact)
                              : reference::divisive_norm_backward(parameters_of(p), 1.0, x_ref, means_view, dy_ref, 0.0,
                                                                  exact, &exact_d_means.view());
    ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    const Bounds bounds(p, x, p.means ? &means : nullptr, &dy);
    EXPECT_TRUE(matches_blend(p, result, initial, exact.values(), forward ? bounds.forward() : bounds.dx(),
                              bounds.step(), text + (forward ? " (y)" : " (dx)")));
    if (!forward && p.d_means) {
        EXPECT_TRUE(matches_blend(p, result_d_means, initial_d_means, exact_d_means.values(), bounds.d_means(),
                                  bounds.step(), text + " (dMeans)"));
    }
    if (!forward && !p.d_means) {
        EXPECT_EQ(result_d_means.bytes, initial_d_means.bytes) << "dMeans is NULL: nothing may be written";
    }
}

TEST(DivisiveNorm, ForwardMatchesReferenceOnRandomShapesWindowsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) check_against_reference(rng, random_problem(rng, Direction::forward));
}

TEST(DivisiveNorm, BackwardMatchesReferenceOnRandomShapesWindowsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) check_against_reference(rng, random_problem(rng, Direction::backward));
}

// Images larger than one CUDA tile (16x16, 4x8x8 in 3-d), so that tiles meet inside the image and
// each computes its halo; the 5-d double case with n = 7 shrinks the tile to 4x4x8 to fit shared memory.
TEST(DivisiveNorm, ImagesOfSeveralTilesMatchReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    struct Shape {
        std::vector<int64_t> dims;
        unsigned n;
        cudnnDataType_t type;
    } shapes[] = {{{1, 2, 37, 21}, 2, CUDNN_DATA_FLOAT},
                  {{2, 1, 19, 33}, 5, CUDNN_DATA_DOUBLE},
                  {{1, 1, 40, 17}, 9, CUDNN_DATA_HALF},
                  {{1, 1, 9, 17, 18}, 3, CUDNN_DATA_FLOAT},
                  {{1, 2, 10, 14, 15}, 7, CUDNN_DATA_DOUBLE}};
    for (const Shape &shape : shapes) {
        for (Direction direction : {Direction::forward, Direction::backward}) {
            DivNormProblem p;
            p.direction = direction;
            p.n = shape.n;
            p.lrn_alpha = 0.5;
            p.lrn_beta = 0.75;
            p.lrn_k = 1.5;
            p.x = make_geometry(rng, shape.type, shape.dims, rng.pick(all_layout_kinds()));
            (direction == Direction::forward ? p.y : p.dx) =
                make_geometry(rng, shape.type, shape.dims, rng.pick(all_layout_kinds()));
            p.alpha = 1.0;
            p.beta = rng.coin() ? 0.0 : 0.5;
            check_against_reference(rng, p);
        }
    }
}

// The backward pass is the gradient of the forward: dx = d(sum w * y)/dx and dMeans = d(sum w * y)/dmeans
// for dy = w, for even and odd n (NVIDIA's dx is not, for even n). Central differences in double with
// h = 1e-5 err by about h^2 |y'''| (under 1e-8 here) plus the rounding of the sums over h (about 1e-10).
TEST(DivisiveNorm, BackwardIsTheGradientOfTheForward) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const std::vector<std::vector<int64_t>> shapes = {{1, 2, 4, 5}, {1, 1, 3, 3, 4}};
    for (const std::vector<int64_t> &dims : shapes) {
        for (unsigned n : {1u, 2u, 3u, 4u, 5u}) {
            SCOPED_TRACE("n " + std::to_string(n) + ", " + std::to_string(dims.size()) + "-d");
            NormDescriptor desc(n, 0.7, 0.75, 1.5);
            const TensorGeometry g =
                packed_geometry(CUDNN_DATA_DOUBLE, static_cast<int>(dims.size()), dims.data(), PackedLayout::nchw);
            const size_t count = static_cast<size_t>(g.element_count());
            std::vector<double> x(count), m(count), w(count);
            for (double &v : x) v = rng.uniform(-2, 2);
            for (double &v : m) v = rng.uniform(-1, 1);
            for (double &v : w) v = rng.uniform(-1, 1);
            Handle handle;
            TensorDescriptor d(g);
            const double one = 1.0, zero = 0.0;
            const std::vector<double> zeros(count, 0.0);
            DeviceBuffer temp(bytes_of(zeros)), temp2(bytes_of(zeros));
            auto loss = [&](const std::vector<double> &xs, const std::vector<double> &ms) {
                DeviceBuffer xb(bytes_of(xs)), mb(bytes_of(ms)), yb(bytes_of(zeros));
                EXPECT_EQ(cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, d, xb.get(), mb.get(),
                                                            temp.get(), temp2.get(), &zero, d, yb.get()),
                          CUDNN_STATUS_SUCCESS);
                const std::vector<double> y = values_of<double>(yb.download());
                double l = 0;
                for (size_t i = 0; i < count; ++i) l += w[i] * y[i];
                return l;
            };
            DeviceBuffer xb(bytes_of(x)), mb(bytes_of(m)), wb(bytes_of(w)), dxb(bytes_of(zeros)), dmb(bytes_of(zeros));
            ASSERT_EQ(cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, d, xb.get(), mb.get(), wb.get(),
                                                         temp.get(), temp2.get(), &zero, d, dxb.get(), dmb.get()),
                      CUDNN_STATUS_SUCCESS)
                << last_failure_reason();
            const std::vector<double> dx = values_of<double>(dxb.download());
            const std::vector<double> dm = values_of<double>(dmb.download());
            const double h = 1e-5;
            for (size_t i = 0; i < count; ++i) {
                std::vector<double> up = x, down = x;
                up[i] += h;
                down[i] -= h;
                EXPECT_NEAR(dx[i], (loss(up, m) - loss(down, m)) / (2 * h), 1e-6) << "dx[" << i << "]";
                up = m;
                down = m;
                up[i] += h;
                down[i] -= h;
                EXPECT_NEAR(dm[i], (loss(x, up) - loss(x, down)) / (2 * h), 1e-6) << "dMeans[" << i << "]";
            }
        }
    }
}

// The window counts of an image of rows x cols for window n (the positions of W(p) inside the image).
std::vector<double> window_counts(int64_t rows, int64_t cols, unsigned n) {
    std::vector<double> counts;
    int64_t first, last, first2, last2;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            reference::divisive_norm_window(n, r, rows, &first, &last);
            reference::divisive_norm_window(n, c, cols, &first2, &last2);
            counts.push_back(static_cast<double>((last - first + 1) * (last2 - first2 + 1)));
        }
    return counts;
}

// Runs the forward pass in double on 1 x 1 x rows x cols with a = b = k = 1 (means NULL when empty).
std::vector<double> forward_2d(int64_t rows, int64_t cols, unsigned n, const std::vector<double> &x,
                               const std::vector<double> &means) {
    Handle handle;
    NormDescriptor desc(n, 1.0, 1.0, 1.0);
    const int64_t dims[] = {1, 1, rows, cols};
    TensorDescriptor d(packed_geometry(CUDNN_DATA_DOUBLE, 4, dims, PackedLayout::nchw));
    const std::vector<double> nan(x.size(), std::nan("")), zeros(x.size(), 0.0);
    DeviceBuffer xb(bytes_of(x)), mb(bytes_of(means.empty() ? zeros : means)), t1(bytes_of(zeros)), t2(bytes_of(zeros)),
        yb(bytes_of(nan));
    const double one = 1.0, zero = 0.0;
    EXPECT_EQ(
        cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, d, xb.get(), means.empty() ? nullptr : mb.get(),
                                          t1.get(), t2.get(), &zero, d, yb.get()),
        CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    return values_of<double>(yb.download());
}

// What NVIDIA cuDNN 9.19 gave the probe (probe.txt there), with lrnAlpha = lrnBeta = k = 1.
TEST(DivisiveNorm, MatchesWhatNvidiasLibraryComputes) {
    // Ones, no means, 6 x 7: 1/y - 1 = (pixels of the window in the image) / n^2; the probe's tables
    // for n = 3 and n = 4 (rows 0 and 5, and column 6), times n^2.
    for (unsigned n : {1u, 2u, 3u, 4u, 5u}) {
        const std::vector<double> y = forward_2d(6, 7, n, std::vector<double>(42, 1.0), {});
        const std::vector<double> counts = window_counts(6, 7, n);
        for (size_t i = 0; i < 42; ++i)
            EXPECT_NEAR(1.0 / y[i] - 1.0, counts[i] / (n * n), 1e-14) << "n " << n << " at " << i;
        if (n == 3) {
            const double row0[] = {4, 6, 6, 6, 6, 6, 4};
            for (int c = 0; c < 7; ++c) EXPECT_NEAR((1.0 / y[c] - 1.0) * 9, row0[c], 1e-12);
            EXPECT_NEAR(1.0 / y[3 * 7 + 3] - 1.0, 1.0, 1e-14);  // interior: 9/9
        }
        if (n == 4) {
            const double row5[] = {6, 8, 8, 8, 8, 6, 4}, col6[] = {6, 8, 8, 8, 6, 4};
            for (int c = 0; c < 7; ++c) EXPECT_NEAR((1.0 / y[5 * 7 + c] - 1.0) * 16, row5[c], 1e-12);
            for (int r = 0; r < 6; ++r) EXPECT_NEAR((1.0 / y[r * 7 + 6] - 1.0) * 16, col6[r], 1e-12);
        }
    }
    // 5-d ones, 2 x 1 x 3 x 4 x 5, n = 3: a 3-d window and lrnAlpha / 27 (the first depth slice's
    // interior 18/27, the middle slice's 27/27).
    {
        Handle handle;
        NormDescriptor desc(3, 1.0, 1.0, 1.0);
        const int64_t dims[] = {2, 1, 3, 4, 5};
        TensorDescriptor d(packed_geometry(CUDNN_DATA_DOUBLE, 5, dims, PackedLayout::nchw));
        const std::vector<double> ones(120, 1.0), zeros(120, 0.0), nan(120, std::nan(""));
        DeviceBuffer xb(bytes_of(ones)), t1(bytes_of(zeros)), t2(bytes_of(zeros)), yb(bytes_of(nan));
        const double one = 1.0, zero = 0.0;
        ASSERT_EQ(cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, d, xb.get(), nullptr, t1.get(), t2.get(),
                                                    &zero, d, yb.get()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> y = values_of<double>(yb.download());
        EXPECT_NEAR(1.0 / y[0 * 20 + 1 * 5 + 1] - 1.0, 18.0 / 27, 1e-14);
        EXPECT_NEAR(1.0 / y[1 * 20 + 1 * 5 + 1] - 1.0, 27.0 / 27, 1e-14);
        EXPECT_NEAR(1.0 / y[0] - 1.0, 8.0 / 27, 1e-14);
        EXPECT_NEAR(1.0 / y[60 + 2 * 20 + 3 * 5 + 4] - 1.0, 8.0 / 27, 1e-14);  // image 1's last corner
    }
    // An impulse 2 at (3, 3) among ones, 7 x 7, n = 4: x/y - 1 grows by 3/16 where the window holds it
    // (the outputs at rows and columns 1 to 4: the window starts one behind).
    {
        std::vector<double> x(49, 1.0);
        x[3 * 7 + 3] = 2.0;
        const std::vector<double> y = forward_2d(7, 7, 4, x, {});
        const std::vector<double> counts = window_counts(7, 7, 4);
        for (int r = 0; r < 7; ++r)
            for (int c = 0; c < 7; ++c) {
                const bool holds = r >= 1 && r <= 4 && c >= 1 && c <= 4;
                EXPECT_NEAR(x[r * 7 + c] / y[r * 7 + c] - 1.0, (counts[r * 7 + c] + (holds ? 3 : 0)) / 16, 1e-14)
                    << r << "," << c;
            }
        EXPECT_NEAR(x[1 * 7 + 1] / y[1 * 7 + 1] - 1.0, 1.1875, 1e-14);  // the probe's number
    }
    // Means, n = 1: y = x / (1 + (x - m)^2): 0, 0.8 and 2/3.25 for x = 0, 1, 2 and m = 0.5.
    for (double value : {0.0, 1.0, 2.0}) {
        const std::vector<double> y = forward_2d(5, 6, 1, std::vector<double>(30, value), std::vector<double>(30, 0.5));
        for (double e : y) EXPECT_NEAR(e, value / (1 + (value - 0.5) * (value - 0.5)), 1e-15);
    }
    // The centre's mean: x = 1, m = 0 but m = 1 at (2, 2), n = 3, 5 x 6. At (2, 2) every neighbour is
    // x - m = 0 away: y = 1; its neighbours use their own mean 0: 0.5 inside, 0.6 on edges, 9/13 in
    // corners. With m = 0.5 there, y = 1 / (1 + 9 * 0.25 / 9) = 0.8.
    for (double centre : {1.0, 0.5}) {
        std::vector<double> m(30, 0.0);
        m[2 * 6 + 2] = centre;
        const std::vector<double> y = forward_2d(5, 6, 3, std::vector<double>(30, 1.0), m);
        EXPECT_NEAR(y[2 * 6 + 2], centre == 1.0 ? 1.0 : 0.8, 1e-15);
        for (int at : {1 * 6 + 1, 1 * 6 + 2, 2 * 6 + 1, 2 * 6 + 3, 3 * 6 + 3, 3 * 6 + 4})
            EXPECT_NEAR(y[at], 0.5, 1e-15);
        EXPECT_NEAR(y[0], 9.0 / 13, 1e-15);
        EXPECT_NEAR(y[1], 0.6, 1e-15);
    }
    // Zeros with one x = 1 at (2, 2), n = 3: 0.9 there (1 / (1 + 1/9)), 0 elsewhere.
    {
        std::vector<double> x(30, 0.0);
        x[2 * 6 + 2] = 1.0;
        const std::vector<double> y = forward_2d(5, 6, 3, x, std::vector<double>(30, 0.0));
        for (int i = 0; i < 30; ++i) EXPECT_NEAR(y[i], i == 2 * 6 + 2 ? 0.9 : 0.0, 1e-15) << i;
    }
}

// In place (an output in an input's memory) gives the bits of the same call out of place, whose
// output starts with that input's values.
TEST(DivisiveNorm, InPlaceGivesTheOutOfPlaceBits) {
    LIBREDNN_SEEDED_RANDOM(rng);
    // Which input each output is (-1: its own memory): 0 x, 1 means, 2 dy. `means_is_x`: means is x's memory.
    struct Alias {
        Direction direction;
        int result, d_means;
        bool means_is_x;
    } aliases[] = {{Direction::forward, 0, -1, false},  {Direction::forward, 1, -1, false},
                   {Direction::forward, 0, -1, true},   {Direction::backward, 0, -1, false},
                   {Direction::backward, 2, -1, false}, {Direction::backward, -1, 1, false},
                   {Direction::backward, 2, 0, false},  {Direction::backward, 1, 2, false},
                   {Direction::backward, 0, -1, true},  {Direction::backward, 2, 0, true}};
    for (const Alias &alias : aliases) {
        for (int trial = 0; trial < 4; ++trial) {
            DivNormProblem p = random_problem(rng, alias.direction);
            (alias.direction == Direction::forward ? p.y : p.dx) = p.x;  // in place needs one layout
            p.means = true;
            p.d_means = alias.direction == Direction::backward;
            const std::string text = to_problem_string(p).to_string();
            SCOPED_TRACE(text + " result is input " + std::to_string(alias.result) + ", dMeans is input " +
                         std::to_string(alias.d_means) + (alias.means_is_x ? ", means is x" : ""));
            HostTensor inputs[3] = {HostTensor(p.x), HostTensor(p.x), HostTensor(p.x)}, temp(p.x);
            fill_uniform(inputs[0], rng, -2.0, 2.0);
            fill_uniform(inputs[1], rng, -1.0, 1.0);
            fill_uniform(inputs[2], rng, -2.0, 2.0);
            if (alias.means_is_x) inputs[1] = inputs[0];
            poison(temp);
            HostTensor outputs[2] = {initial_output(rng, p.x, p.beta), initial_output(rng, p.x, p.beta)};
            if (alias.result >= 0) outputs[0] = inputs[alias.result];
            if (alias.d_means >= 0) outputs[1] = inputs[alias.d_means];
            Handle handle;
            NormDescriptor desc(p);
            TensorDescriptor d(p.x);
            const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
            const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
            // Out of place.
            std::vector<uint8_t> expected[2];
            {
                DeviceBuffer x(inputs[0].bytes), m(inputs[1].bytes), dy(inputs[2].bytes), t1(temp.bytes),
                    t2(temp.bytes), out(outputs[0].bytes), dm(outputs[1].bytes);
                const cudnnStatus_t status =
                    alias.direction == Direction::forward
                        ? cudnnDivisiveNormalizationForward(handle, desc, kMode, alpha.get(), d, x.get(), m.get(),
                                                            t1.get(), t2.get(), beta.get(), d, out.get())
                        : cudnnDivisiveNormalizationBackward(handle, desc, kMode, alpha.get(), d, x.get(), m.get(),
                                                             dy.get(), t1.get(), t2.get(), beta.get(), d, out.get(),
                                                             dm.get());
                ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
                expected[0] = out.download();
                expected[1] = dm.download();
            }
            // In place.
            DeviceBuffer x(inputs[0].bytes), m(inputs[1].bytes), dy(inputs[2].bytes), t1(temp.bytes), t2(temp.bytes),
                own_out(outputs[0].bytes), own_dm(outputs[1].bytes);
            void *memory[3] = {x.get(), alias.means_is_x ? x.get() : m.get(), dy.get()};
            void *out = alias.result >= 0 ? memory[alias.result] : own_out.get();
            void *dm = alias.d_means >= 0 ? memory[alias.d_means] : own_dm.get();
            const cudnnStatus_t status =
                alias.direction == Direction::forward
                    ? cudnnDivisiveNormalizationForward(handle, desc, kMode, alpha.get(), d, memory[0], memory[1],
                                                        t1.get(), t2.get(), beta.get(), d, out)
                    : cudnnDivisiveNormalizationBackward(handle, desc, kMode, alpha.get(), d, memory[0], memory[1],
                                                         memory[2], t1.get(), t2.get(), beta.get(), d, out, dm);
            ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
            DeviceBuffer *buffers[3] = {&x, alias.means_is_x ? &x : &m, &dy};
            const DeviceBuffer &got = alias.result >= 0 ? *buffers[alias.result] : own_out;
            EXPECT_TRUE(got.download() == expected[0]) << "the result differs from the out-of-place call's";
            if (alias.direction == Direction::backward) {
                const DeviceBuffer &got_dm = alias.d_means >= 0 ? *buffers[alias.d_means] : own_dm;
                EXPECT_TRUE(got_dm.download() == expected[1]) << "dMeans differs from the out-of-place call's";
            }
        }
    }
}

TEST(DivisiveNormRejects, DocumentedMisuse) {
    Handle handle;
    NormDescriptor desc(5, 1e-4, 0.75, 2.0);
    const int64_t x_dims[] = {2, 3, 4, 4}, wrong[] = {2, 3, 4, 5}, three[] = {2, 3, 4}, six[] = {1, 2, 3, 2, 2, 2};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor x_nhwc(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nhwc));
    TensorDescriptor y_bad(packed_geometry(CUDNN_DATA_FLOAT, 4, wrong, PackedLayout::nchw));
    TensorDescriptor half_y(packed_geometry(CUDNN_DATA_HALF, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor bf16(packed_geometry(CUDNN_DATA_BFLOAT16, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor int8(packed_geometry(CUDNN_DATA_INT8, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor x3(packed_geometry(CUDNN_DATA_FLOAT, 3, three, PackedLayout::nchw));
    TensorDescriptor x6(packed_geometry(CUDNN_DATA_FLOAT, 6, six, PackedLayout::nchw));
    std::vector<float> a(256, 1.0f), b(256, 1.0f), c(256, 1.0f), t(256), t2(256);
    void *d = a.data(), *o = b.data(), *m = c.data(), *tp = t.data(), *tp2 = t2.data();
    const float one = 1.0f, zero = 0.0f;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, bf16, d, m, tp, tp2, &zero, bf16, o),
                    "CUDNN_DATA_BFLOAT16");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, int8, d, m, tp, tp2, &zero, int8, o),
                    "CUDNN_DATA_INT8");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x3, d, m, tp, tp2, &zero, x3, o),
                    "3 dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x6, d, m, tp, tp2, &zero, x6, o),
                    "6 dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x, d, m, nullptr, tp2, &zero, x, o),
                    "temp is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x, d, m, tp, nullptr, &zero, x, o),
                    "temp2 is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x, d, m, tp, tp2, &zero, y_bad, o),
                    "same dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x, d, m, tp, tp2, &zero, half_y, o),
                    "data type");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnDivisiveNormalizationForward(handle, desc, static_cast<cudnnDivNormMode_t>(1), &one, x, d, m,
                                                      tp, tp2, &zero, x, o),
                    "mode is 1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, nullptr, kMode, &one, x, d, m, tp, tp2, &zero, x, o),
                    "normDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x, nullptr, m, tp, tp2, &zero, x, o),
                    "x is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, nullptr, x, d, m, tp, tp2, &zero, x, o),
                    "alpha is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationForward(handle, desc, kMode, &one, x, d, m, tp, tp2, &zero, x_nhwc, d),
                    "in place");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, x, d, m, d, nullptr, tp2, &zero, x, o, m),
        "temp is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, x, d, m, nullptr, tp, tp2, &zero, x, o, m),
        "dy is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, x, d, m, d, tp, tp2, &zero, x, nullptr, m),
        "dx is NULL");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, x, d, m, d, tp, tp2, &zero, y_bad, o, m),
        "same dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, x, d, m, d, tp, tp2, &zero, x, o, o),
                    "dx and dMeans");
    EXPECT_REJECTED(
        CUDNN_STATUS_NOT_SUPPORTED,
        cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, bf16, d, m, d, tp, tp2, &zero, bf16, o, m),
        "CUDNN_DATA_BFLOAT16");
    EXPECT_REJECTED(
        CUDNN_STATUS_BAD_PARAM,
        cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, x3, d, m, d, tp, tp2, &zero, x3, o, m), "3 dims");
}

TEST(DivisiveNormProblemString, RoundTrips) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        DivNormProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        p.in_place = rng.coin();
        const ProblemString text = to_problem_string(p);
        DivNormProblem back;
        std::string error;
        ASSERT_TRUE(parse_divnorm_problem(text, &back, &error)) << text.to_string() << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
        EXPECT_TRUE(back == p) << text.to_string();
    }
    DivNormProblem p;
    std::string error;
    ProblemString text;
    ASSERT_TRUE(ProblemString::parse("op=divnorm dir=bwd dtype=half dims=2x3x4x5 means=none dmeans=none lrn_n=3", &text,
                                     &error))
        << error;
    ASSERT_TRUE(parse_divnorm_problem(text, &p, &error)) << error;
    EXPECT_EQ(p.direction, Direction::backward);
    EXPECT_EQ(p.n, 3u);
    EXPECT_FALSE(p.means);
    EXPECT_FALSE(p.d_means);
    EXPECT_EQ(p.dx.dtype, CUDNN_DATA_HALF);
    // docs/PROBLEMS.md's canonical example prints back unchanged.
    const std::string canonical =
        "op=divnorm dir=bwd dtype=float dims=2x16x7x7 xstrides=784x49x7x1 dxstrides=784x49x7x1 lrn_n=5 "
        "lrn_alpha=0.0001 lrn_beta=0.75 lrn_k=2 alpha=1 beta=0 dmeans=none";
    ASSERT_TRUE(ProblemString::parse(canonical, &text, &error)) << error;
    ASSERT_TRUE(parse_divnorm_problem(text, &p, &error)) << error;
    EXPECT_EQ(to_problem_string(p).to_string(), canonical);
    ASSERT_TRUE(ProblemString::parse("op=divnorm dims=2x3x4x5 dtype=float means=maybe", &text, &error));
    EXPECT_FALSE(parse_divnorm_problem(text, &p, &error));
    EXPECT_NE(error.find("means=maybe"), std::string::npos) << error;
}

// The dispatch log names the problem in its problem string, which reads back as the call's problem.
TEST(DivisiveNormDispatch, LogsTheProblemString) {
    Handle handle;
    NormDescriptor desc(3, 0.5, 0.75, 1.5);
    const int64_t dims[] = {1, 2, 3, 4, 5};
    const TensorGeometry g = packed_geometry(CUDNN_DATA_FLOAT, 5, dims, PackedLayout::nhwc);
    TensorDescriptor d(g);
    const std::vector<float> values(120, 1.0f);
    DeviceBuffer x(bytes_of(values)), dy(bytes_of(values)), t1(bytes_of(values)), t2(bytes_of(values)),
        dx(bytes_of(values));
    const float one = 1.0f, zero = 0.0f;
    LogCapture capture(CUDNN_SEV_INFO_EN);
    ASSERT_EQ(cudnnDivisiveNormalizationBackward(handle, desc, kMode, &one, d, x.get(), nullptr, dy.get(), t1.get(),
                                                 t2.get(), &zero, d, dx.get(), nullptr),
              CUDNN_STATUS_SUCCESS);
    const char *chosen = test_backend() == TestBackend::host ? "chose host_divnorm_strided" : "chose cuda_divnorm";
    ASSERT_TRUE(capture.contains({"dispatch", "op=divnorm", chosen})) << capture.all();
    DivNormProblem expected;
    expected.direction = Direction::backward;
    expected.n = 3;
    expected.lrn_alpha = 0.5;
    expected.lrn_beta = 0.75;
    expected.lrn_k = 1.5;
    expected.x = expected.dx = g;
    expected.means = expected.d_means = false;
    for (const std::string &message : capture.messages()) {
        const size_t at = message.find("op=divnorm");
        if (at == std::string::npos) continue;
        const std::string line = message.substr(at, message.find('\n', at) - at);
        ProblemString text;
        DivNormProblem logged;
        std::string error;
        ASSERT_TRUE(ProblemString::parse(line, &text, &error)) << line << ": " << error;
        ASSERT_TRUE(parse_divnorm_problem(text, &logged, &error)) << line << ": " << error;
        EXPECT_EQ(to_problem_string(logged).to_string(), to_problem_string(expected).to_string());
        return;
    }
}

}  // namespace
