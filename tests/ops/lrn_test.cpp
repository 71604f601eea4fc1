// cudnnLRNCrossChannelForward and Backward against the reference on random geometries (3 to 5 dims),
// window sizes 1 to 16, parameters, layouts and types; the backward pass also against central
// differences of the forward in double; in place; and the rejections.
#include "reference/lrn.hpp"
#include "api/api_test_util.hpp"
#include "op_test_util.hpp"
#include "ops/lrn/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>

namespace {

using namespace librednn;
using namespace librednn::test;

const std::vector<cudnnDataType_t> kTypes = {CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16};

class LrnDescriptor {
public:
    explicit LrnDescriptor(const LrnProblem &p) {
        EXPECT_EQ(cudnnCreateLRNDescriptor(&desc_), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetLRNDescriptor(desc_, p.n, p.lrn_alpha, p.lrn_beta, p.lrn_k), CUDNN_STATUS_SUCCESS);
    }
    ~LrnDescriptor() { cudnnDestroyLRNDescriptor(desc_); }
    LrnDescriptor(const LrnDescriptor &) = delete;
    LrnDescriptor &operator=(const LrnDescriptor &) = delete;
    operator cudnnLRNDescriptor_t() const { return desc_; }

private:
    cudnnLRNDescriptor_t desc_ = nullptr;
};

LrnProblem random_problem(Random &rng, Direction direction) {
    LrnProblem p;
    p.direction = direction;
    p.n = static_cast<unsigned>(rng.integer(1, 16));
    p.lrn_alpha = rng.pick<double>({1e-4, 0.5, 2.0});
    p.lrn_beta = rng.pick<double>({0.75, 0.01, rng.uniform(0.01, 2.0)});
    p.lrn_k = rng.pick<double>({2.0, 1.0, rng.uniform(0.5, 3.0)});
    const cudnnDataType_t type = rng.pick(kTypes);
    const int nb_dims = static_cast<int>(rng.pick<int64_t>({3, 4, 4, 5}));
    std::vector<int64_t> dims = {rng.integer(1, 3), rng.integer(1, 20)};
    for (int i = 2; i < nb_dims; ++i) dims.push_back(rng.integer(1, 5));
    p.x = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    p.y = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    if (direction == Direction::backward) {
        p.dy = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
        p.dx = make_geometry(rng, type, dims, rng.pick(all_layout_kinds()));
    }
    const bool in_double = type == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    return p;
}

reference::LrnParameters parameters_of(const LrnProblem &p) {
    reference::LrnParameters lrn;
    lrn.n = p.n;
    lrn.alpha = p.lrn_alpha;
    lrn.beta = p.lrn_beta;
    lrn.k = p.lrn_k;
    return lrn;
}

reference::HostTensor double_copy(const HostTensor &t) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE,
                               std::vector<int64_t>(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims));
    copy.set_values(element_values(t));
    return copy;
}

// The error bounds (docs/NUMERICS.md, "LRN"): s = k + alpha / n * (a sum of at most n squares) errs
// by sum_error plus two roundings per square and the scaling; x * s^-beta then errs relatively by
// beta times s's relative error plus an element-wise step (the power and the product).
class Bounds {
public:
    Bounds(const LrnProblem &p, const HostTensor &x, const HostTensor &dy) : p_(p), x_(x), dy_(dy) {}

    double u() const { return accumulation_roundoff(p_.x.dtype); }
    double step() const {
        return tolerance_for(p_.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
    }

    // s and its relative error at `index` (channel index[1]).
    void scale_at(const int64_t *index, double *s, double *relative) const {
        int64_t at[kMaxDims];
        for (int i = 0; i < p_.x.nb_dims; ++i) at[i] = index[i];
        int64_t first, last;
        reference::lrn_window(parameters_of(p_), index[1], p_.x.dims[1], &first, &last);
        double squares = 0;
        for (at[1] = first; at[1] <= last; ++at[1]) squares += x_.at(at) * x_.at(at);
        const double scale = p_.lrn_alpha / p_.n;
        *s = p_.lrn_k + scale * squares;
        const double error =
            scale * (sum_error(static_cast<double>(last - first + 1), squares, u()) + 3 * u() * squares) + 2 * u() * *s;
        *relative = error / *s;
    }

    // The unblended result's compute error at `index`.
    double error_at(const int64_t *index) const {
        double s, rel;
        scale_at(index, &s, &rel);
        const double x = x_.at(index);
        if (p_.direction == Direction::forward)
            return std::fabs(x * std::pow(s, -p_.lrn_beta)) * (p_.lrn_beta * rel + step());
        const double t1 = dy_.at(index) * std::pow(s, -p_.lrn_beta);
        const double e1 = std::fabs(t1) * (p_.lrn_beta * rel + step());
        int64_t at[kMaxDims];
        for (int i = 0; i < p_.x.nb_dims; ++i) at[i] = index[i];
        const int64_t first = std::max<int64_t>(index[1] - p_.ahead(), 0);
        const int64_t last = std::min<int64_t>(index[1] + p_.behind(), p_.x.dims[1] - 1);
        double sum = 0, sum_abs = 0, sum_error_terms = 0;
        for (at[1] = first; at[1] <= last; ++at[1]) {
            double sc, relc;
            scale_at(at, &sc, &relc);
            const double q = dy_.at(at) * x_.at(at) * std::pow(sc, -p_.lrn_beta - 1);
            sum += q;
            sum_abs += std::fabs(q);
            sum_error_terms += std::fabs(q) * ((p_.lrn_beta + 1) * relc + step());
        }
        const double factor = 2 * p_.lrn_alpha * p_.lrn_beta / p_.n;
        const double t2 = factor * x * sum;
        const double e2 =
            factor * std::fabs(x) * (sum_error_terms + sum_error(static_cast<double>(last - first + 1), sum_abs, u())) +
            step() * factor * std::fabs(x) * sum_abs;
        return e1 + e2 + step() * (std::fabs(t1) + std::fabs(t2));
    }

private:
    const LrnProblem &p_;
    const HostTensor &x_;
    const HostTensor &dy_;
};

void check_against_reference(Random &rng, const LrnProblem &p) {
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const bool forward = p.direction == Direction::forward;
    HostTensor x(p.x), y(p.y), dy(forward ? p.x : p.dy), initial(p.result());
    fill_uniform(x, rng, -2.0, 2.0);
    fill_uniform(y, rng, -2.0, 2.0);
    fill_uniform(dy, rng, -2.0, 2.0);
    if (p.beta == 0.0) {
        poison(initial);
    } else {
        fill_uniform(initial, rng, -2.0, 2.0);
    }
    Handle handle;
    LrnDescriptor desc(p);
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    DeviceBuffer x_buffer(x.bytes), y_buffer(y.bytes), dy_buffer(dy.bytes), out(initial.bytes);
    if (forward) {
        ASSERT_EQ(cudnnLRNCrossChannelForward(handle, desc, CUDNN_LRN_CROSS_CHANNEL_DIM1, alpha.get(), x_desc,
                                              x_buffer.get(), beta.get(), y_desc, out.get()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    } else {
        TensorDescriptor dy_desc(p.dy), dx_desc(p.dx);
        ASSERT_EQ(cudnnLRNCrossChannelBackward(handle, desc, CUDNN_LRN_CROSS_CHANNEL_DIM1, alpha.get(), y_desc,
                                               y_buffer.get(), dy_desc, dy_buffer.get(), x_desc, x_buffer.get(),
                                               beta.get(), dx_desc, out.get()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
    }
    HostTensor result(p.result());
    result.bytes = out.download();

    reference::HostTensor exact(CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.x.dims, p.x.dims + p.x.nb_dims));
    const Status status =
        forward
            ? reference::lrn_cross_channel_forward(parameters_of(p), 1.0, double_copy(x), 0.0, exact)
            : reference::lrn_cross_channel_backward(parameters_of(p), 1.0, double_copy(x), double_copy(dy), 0.0, exact);
    ASSERT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    const std::vector<double> value = exact.values(), old = element_values(initial);
    const Bounds bounds_of(p, x, dy);
    const double step = bounds_of.step();
    std::vector<ElementBound> bounds(value.size());
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[e];
        bounds[e].exact = p.alpha * value[e] + before;
        bounds[e].compute_error =
            std::fabs(p.alpha) * bounds_of.error_at(index) + step * (std::fabs(p.alpha * value[e]) + std::fabs(before));
        ref.set(index, bounds[e].exact);
        ++e;
    } while (next_index(index, p.x.dims, p.x.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, bounds, text));
}

TEST(Lrn, ForwardMatchesReferenceOnRandomGeometriesWindowsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) check_against_reference(rng, random_problem(rng, Direction::forward));
}

TEST(Lrn, BackwardMatchesReferenceOnRandomGeometriesWindowsAndLayouts) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 150; ++trial) check_against_reference(rng, random_problem(rng, Direction::backward));
}

// The backward pass is the gradient of the forward: dx = d(sum w * y)/dx for dy = w. Central
// differences in double with h = 1e-5 err by about h^2 |y'''| (under 1e-8 here) plus the rounding of
// the sum over h (about 1e-10); 1e-6 leaves room for both and catches any wrong term.
TEST(Lrn, BackwardIsTheGradientOfTheForward) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (unsigned n : {1u, 2u, 5u, 16u}) {
        LrnProblem p;
        p.n = n;
        p.lrn_alpha = 0.5;
        p.lrn_beta = 0.75;
        p.lrn_k = 1.5;
        SCOPED_TRACE("n " + std::to_string(n));
        const int64_t dims[] = {2, 7, 2, 3};
        const TensorGeometry g = packed_geometry(CUDNN_DATA_DOUBLE, 4, dims, PackedLayout::nchw);
        const size_t count = static_cast<size_t>(g.element_count());
        std::vector<double> x(count), w(count);
        for (double &v : x) v = rng.uniform(-2, 2);
        for (double &v : w) v = rng.uniform(-1, 1);
        Handle handle;
        LrnDescriptor desc(p);
        TensorDescriptor d(g);
        const double one = 1.0, zero = 0.0;
        auto loss = [&](const std::vector<double> &xs) {
            DeviceBuffer xb(bytes_of(xs)), yb(bytes_of(std::vector<double>(count)));
            EXPECT_EQ(cudnnLRNCrossChannelForward(handle, desc, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, d, xb.get(), &zero,
                                                  d, yb.get()),
                      CUDNN_STATUS_SUCCESS);
            const std::vector<double> y = values_of<double>(yb.download());
            double l = 0;
            for (size_t i = 0; i < count; ++i) l += w[i] * y[i];
            return l;
        };
        DeviceBuffer xb(bytes_of(x)), wb(bytes_of(w)), yb(bytes_of(std::vector<double>(count)));
        DeviceBuffer dxb(bytes_of(std::vector<double>(count)));
        ASSERT_EQ(cudnnLRNCrossChannelBackward(handle, desc, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, d, yb.get(), d,
                                               wb.get(), d, xb.get(), &zero, d, dxb.get()),
                  CUDNN_STATUS_SUCCESS);
        const std::vector<double> dx = values_of<double>(dxb.download());
        const double h = 1e-5;
        for (size_t i = 0; i < count; ++i)
            EXPECT_NEAR(dx[i], central_difference(x, i, h, [&] { return loss(x); }), 1e-6) << "dx[" << i << "]";
    }
}

TEST(Lrn, InPlaceOnTheHostOrNotSupportedOnCuda) {
    LIBREDNN_SEEDED_RANDOM(rng);
    LrnProblem p;
    const int64_t dims[] = {2, 9, 3, 3};
    p.x = p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, dims, PackedLayout::nchw);
    HostTensor x(p.x);
    fill_uniform(x, rng, -2.0, 2.0);
    Handle handle;
    LrnDescriptor desc(p);
    TensorDescriptor d(p.x);
    DeviceBuffer buffer(x.bytes);
    const float one = 1.0f, zero = 0.0f;
    const cudnnStatus_t status = cudnnLRNCrossChannelForward(handle, desc, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, d,
                                                             buffer.get(), &zero, d, buffer.get());
    if (test_backend() != TestBackend::host) {
        EXPECT_EQ(status, CUDNN_STATUS_NOT_SUPPORTED);
        return;
    }
    ASSERT_EQ(status, CUDNN_STATUS_SUCCESS);
    reference::HostTensor exact(CUDNN_DATA_DOUBLE, std::vector<int64_t>(dims, dims + 4));
    ASSERT_EQ(reference::lrn_cross_channel_forward(parameters_of(p), 1.0, double_copy(x), 0.0, exact),
              CUDNN_STATUS_SUCCESS);
    HostTensor result(p.x), ref(p.x);
    result.bytes = buffer.download();
    const std::vector<double> v = exact.values();
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        ref.set(index, v[e++]);
    } while (next_index(index, p.x.dims, p.x.nb_dims));
    EXPECT_TRUE(matches_reference(result, ref, 4.0, "in place"));
}

TEST(LrnRejects, DocumentedMisuse) {
    Handle handle;
    LrnProblem p;
    LrnDescriptor desc(p);
    const int64_t x_dims[] = {2, 3, 4, 4}, wrong[] = {2, 3, 4, 5};
    TensorDescriptor x(packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor y_bad(packed_geometry(CUDNN_DATA_FLOAT, 4, wrong, PackedLayout::nchw));
    TensorDescriptor half_y(packed_geometry(CUDNN_DATA_HALF, 4, x_dims, PackedLayout::nchw));
    TensorDescriptor int_x(packed_geometry(CUDNN_DATA_INT32, 4, x_dims, PackedLayout::nchw));
    std::vector<float> data(256, 1.0f), other(256, 1.0f);
    void *d = data.data(), *o = other.data();
    const float one = 1.0f, zero = 0.0f;
    const cudnnLRNMode_t mode = CUDNN_LRN_CROSS_CHANNEL_DIM1;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnLRNCrossChannelForward(handle, desc, mode, &one, x, d, &zero, y_bad, o), "same dims");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnLRNCrossChannelForward(handle, desc, mode, &one, x, d, &zero, half_y, o), "data type");
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnLRNCrossChannelForward(handle, desc, mode, &one, int_x, d, &zero, int_x, o),
                    "CUDNN_DATA_INT32");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnLRNCrossChannelForward(handle, desc, static_cast<cudnnLRNMode_t>(3), &one, x, d, &zero, x, o),
                    "lrnMode is 3");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnLRNCrossChannelForward(handle, nullptr, mode, &one, x, d, &zero, x, o),
                    "normDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnLRNCrossChannelForward(handle, desc, mode, &one, x, nullptr, &zero, x, o), "x is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnLRNCrossChannelBackward(handle, desc, mode, &one, x, d, y_bad, d, x, d, &zero, x, o),
                    "same dims");
}

TEST(LrnProblemString, RoundTrips) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 40; ++trial) {
        const LrnProblem p = random_problem(rng, trial % 2 ? Direction::forward : Direction::backward);
        const ProblemString text = to_problem_string(p);
        LrnProblem back;
        std::string error;
        ASSERT_TRUE(parse_lrn_problem(text, &back, &error)) << text.to_string() << ": " << error;
        EXPECT_EQ(to_problem_string(back).to_string(), text.to_string());
    }
}

}  // namespace
