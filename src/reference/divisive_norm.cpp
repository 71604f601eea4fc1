// The reference divisive normalisation: per element, its window's sums in double, straight from the
// formulas of divisive_norm.hpp (the backward pass keeps every s_p and g_p in a first pass).
#include "reference/divisive_norm.hpp"

#include <cmath>
#include <vector>

namespace librednn::reference {

namespace {

Status check_like(const TensorView &a, const char *a_name, const TensorView &b, const char *b_name) {
    LIBREDNN_CHECK(check_view(b, b_name));
    if (a.dims != b.dims) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s and %s %s: they must have the same dims", a_name,
                    dims_to_string(a.dims).c_str(), b_name, dims_to_string(b.dims).c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

Status check_x(const TensorView &x) {
    LIBREDNN_CHECK(check_view(x, "x"));
    if (x.rank() != 4 && x.rank() != 5) {
        return fail(CUDNN_STATUS_BAD_PARAM, "x has %d dims; divisive normalisation takes 4 or 5", x.rank());
    }
    return CUDNN_STATUS_SUCCESS;
}

double mean_at(const TensorView *means, const Index &index) { return means ? means->read(index) : 0.0; }

// Calls visit(j) for every j of the box [first, last] over the spatial dims (2...), N and C of `at`.
template <class Visit>
void for_each_in_box(const Index &at, const Index &first, const Index &last, Visit &&visit) {
    Index j = at;
    for (size_t axis = 2; axis < at.size(); ++axis) j[axis] = first[axis];
    for (;;) {
        visit(static_cast<const Index &>(j));
        size_t axis = at.size() - 1;
        while (axis >= 2 && ++j[axis] > last[axis]) {
            j[axis] = first[axis];
            --axis;
        }
        if (axis < 2) return;
    }
}

// W(p) as a box.
void window_of(const DivisiveNormParameters &norm, const TensorView &x, const Index &p, Index *first, Index *last) {
    *first = p;
    *last = p;
    for (int axis = 2; axis < x.rank(); ++axis)
        divisive_norm_window(norm.n, p[axis], x.dims[axis], &(*first)[axis], &(*last)[axis]);
}

double scale_of(const DivisiveNormParameters &norm, const TensorView &x) {
    return norm.alpha / std::pow(static_cast<double>(norm.n), x.rank() - 2);
}

// s_p = k + c * sum over W(p) of (x_j - m_p)^2.
double s_at(const DivisiveNormParameters &norm, const TensorView &x, const TensorView *means, const Index &p) {
    Index first, last;
    window_of(norm, x, p, &first, &last);
    const double m = mean_at(means, p);
    double squares = 0;
    for_each_in_box(p, first, last, [&](const Index &j) { squares += (x.read(j) - m) * (x.read(j) - m); });
    return norm.k + scale_of(norm, x) * squares;
}

}  // namespace

void divisive_norm_window(unsigned n, int64_t position, int64_t extent, int64_t *first, int64_t *last) {
    const int64_t behind = (static_cast<int64_t>(n) - 1) / 2;
    *first = position - behind < 0 ? 0 : position - behind;
    *last = position - behind + static_cast<int64_t>(n) - 1 > extent - 1
                ? extent - 1
                : position - behind + static_cast<int64_t>(n) - 1;
}

Status divisive_norm_forward(const DivisiveNormParameters &norm, double alpha, const TensorView &x,
                             const TensorView *means, double beta, const TensorView &y) {
    LIBREDNN_CHECK(check_x(x));
    if (means) LIBREDNN_CHECK(check_like(x, "x", *means, "means"));
    LIBREDNN_CHECK(check_like(x, "x", y, "y"));
    for_each_index(x.dims, [&](const Index &p) {
        store_blended(y, p, alpha * x.read(p) * std::pow(s_at(norm, x, means, p), -norm.beta), beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status divisive_norm_backward(const DivisiveNormParameters &norm, double alpha, const TensorView &x,
                              const TensorView *means, const TensorView &dy, double beta, const TensorView &dx,
                              const TensorView *d_means) {
    LIBREDNN_CHECK(check_x(x));
    if (means) LIBREDNN_CHECK(check_like(x, "x", *means, "means"));
    LIBREDNN_CHECK(check_like(x, "x", dy, "dy"));
    LIBREDNN_CHECK(check_like(x, "x", dx, "dx"));
    if (d_means) LIBREDNN_CHECK(check_like(x, "x", *d_means, "dMeans"));
    const double factor = 2 * norm.beta * scale_of(norm, x);
    // g_p = dy_p * x_p * s_p^(-b - 1) and s_p, by element in row-major order.
    std::vector<double> g, s;
    for_each_index(x.dims, [&](const Index &p) {
        s.push_back(s_at(norm, x, means, p));
        g.push_back(dy.read(p) * x.read(p) * std::pow(s.back(), -norm.beta - 1));
    });
    auto element = [&](const Index &p) {
        size_t flat = 0;
        for (int axis = 0; axis < x.rank(); ++axis) flat = flat * static_cast<size_t>(x.dims[axis]) + p[axis];
        return flat;
    };
    const int64_t behind = (static_cast<int64_t>(norm.n) - 1) / 2;
    const int64_t ahead = static_cast<int64_t>(norm.n) - 1 - behind;
    for_each_index(x.dims, [&](const Index &q) {
        // The p whose window holds q: q - ahead ... q + behind in every spatial dim, in the image.
        Index first = q, last = q;
        for (int axis = 2; axis < x.rank(); ++axis) {
            first[axis] = q[axis] - ahead < 0 ? 0 : q[axis] - ahead;
            last[axis] = q[axis] + behind > x.dims[axis] - 1 ? x.dims[axis] - 1 : q[axis] + behind;
        }
        double sum = 0;
        for_each_in_box(q, first, last,
                        [&](const Index &p) { sum += g[element(p)] * (x.read(q) - mean_at(means, p)); });
        const double gradient = dy.read(q) * std::pow(s[element(q)], -norm.beta) - factor * sum;
        store_blended(dx, q, alpha * gradient, beta);
    });
    if (d_means) {
        for_each_index(x.dims, [&](const Index &p) {
            Index first, last;
            window_of(norm, x, p, &first, &last);
            const double m = mean_at(means, p);
            double differences = 0;
            for_each_in_box(p, first, last, [&](const Index &j) { differences += x.read(j) - m; });
            store_blended(*d_means, p, alpha * factor * g[element(p)] * differences, beta);
        });
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
