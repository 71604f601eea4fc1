// The reference LRN across channels: per element, its window's sum of squares, in double.
#include "reference/lrn.hpp"

#include <cmath>

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
    if (x.rank() < 3) return fail(CUDNN_STATUS_BAD_PARAM, "x has %d dims; LRN needs N, C and more", x.rank());
    return CUDNN_STATUS_SUCCESS;
}

// s at `index`: k + alpha / n * the sum of squares over the index's channel window.
double scale_at(const LrnParameters &lrn, const TensorView &x, Index index) {
    int64_t first, last;
    lrn_window(lrn, index[1], x.dims[1], &first, &last);
    double squares = 0;
    for (int64_t c = first; c <= last; ++c) {
        index[1] = c;
        const double v = x.read(index);
        squares += v * v;
    }
    return lrn.k + lrn.alpha / lrn.n * squares;
}

}  // namespace

void lrn_window(const LrnParameters &lrn, int64_t c, int64_t channels, int64_t *first, int64_t *last) {
    const int64_t behind = (static_cast<int64_t>(lrn.n) - 1) / 2, ahead = static_cast<int64_t>(lrn.n) - 1 - behind;
    *first = c - behind < 0 ? 0 : c - behind;
    *last = c + ahead > channels - 1 ? channels - 1 : c + ahead;
}

Status lrn_cross_channel_forward(const LrnParameters &lrn, double alpha, const TensorView &x, double beta,
                                 const TensorView &y) {
    LIBREDNN_CHECK(check_x(x));
    LIBREDNN_CHECK(check_like(x, "x", y, "y"));
    for_each_index(x.dims, [&](const Index &i) {
        store_blended(y, i, alpha * x.read(i) * std::pow(scale_at(lrn, x, i), -lrn.beta), beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status lrn_cross_channel_backward(const LrnParameters &lrn, double alpha, const TensorView &x, const TensorView &dy,
                                  double beta, const TensorView &dx) {
    LIBREDNN_CHECK(check_x(x));
    LIBREDNN_CHECK(check_like(x, "x", dy, "dy"));
    LIBREDNN_CHECK(check_like(x, "x", dx, "dx"));
    const int64_t behind = (static_cast<int64_t>(lrn.n) - 1) / 2, ahead = static_cast<int64_t>(lrn.n) - 1 - behind;
    for_each_index(x.dims, [&](const Index &j) {
        // The channels c whose window [c - behind, c + ahead] holds j.
        const int64_t first = j[1] - ahead < 0 ? 0 : j[1] - ahead;
        const int64_t last = j[1] + behind > x.dims[1] - 1 ? x.dims[1] - 1 : j[1] + behind;
        double sum = 0;
        Index c = j;
        for (c[1] = first; c[1] <= last; ++c[1]) {
            sum += dy.read(c) * x.read(c) * std::pow(scale_at(lrn, x, c), -lrn.beta - 1);
        }
        const double gradient =
            dy.read(j) * std::pow(scale_at(lrn, x, j), -lrn.beta) - 2 * lrn.alpha * lrn.beta / lrn.n * x.read(j) * sum;
        store_blended(dx, j, alpha * gradient, beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
