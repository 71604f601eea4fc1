// The reference pooling: each output reduces its window; backward sends each gradient back to the
// inputs its forward value came from.
#include "reference/pooling.hpp"

#include <cmath>

namespace librednn::reference {

namespace {

bool is_max_mode(cudnnPoolingMode_t mode) {
    return mode == CUDNN_POOLING_MAX || mode == CUDNN_POOLING_MAX_DETERMINISTIC;
}

// Calls visit(input_index) for each input position inside the window of output `out`, in window
// order (row-major over the window); padding positions are skipped.
template <typename Visit>
void for_each_in_window(const PoolingGeometry &pool, const std::vector<int64_t> &x_dims, const Index &out,
                        Visit &&visit) {
    Index in = out;  // N and C carry over
    for_each_index(pool.window, [&](const Index &offset) {
        for (size_t d = 0; d < pool.window.size(); ++d) {
            const int64_t i = out[2 + d] * pool.stride[d] - pool.padding[d] + offset[d];
            if (i < 0 || i >= x_dims[2 + d]) return;
            in[2 + d] = i;
        }
        visit(static_cast<const Index &>(in));
    });
}

struct WindowMax {
    bool found = false;  // false when the window holds nothing to take
    double value = 0;
    Index position;  // of the first maximum in window order
};

// A later element wins only when strictly larger, so the first of equal maxima is kept; a propagated
// NaN wins over numbers and then stays.
WindowMax window_max(const PoolingGeometry &pool, const TensorView &x, const Index &out) {
    WindowMax best;
    for_each_in_window(pool, x.dims, out, [&](const Index &i) {
        const double value = x.read(i);
        if (std::isnan(value) && pool.nan_opt == CUDNN_NOT_PROPAGATE_NAN) return;
        if (best.found && std::isnan(best.value)) return;
        if (!best.found || std::isnan(value) || value > best.value) best = {true, value, i};
    });
    return best;
}

// What the average of output `out`'s window divides by.
int64_t average_divisor(const PoolingGeometry &pool, const std::vector<int64_t> &x_dims, const Index &out) {
    int64_t count = 1;
    if (pool.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING) {
        for (int64_t size : pool.window) count *= size;
        return count;
    }
    count = 0;
    for_each_in_window(pool, x_dims, out, [&](const Index &) { ++count; });
    return count;
}

// x and y agree with each other and with `pool`. Names are the caller's argument names.
Status check_pooling(const PoolingGeometry &pool, const TensorView &x, const char *x_name, const TensorView &y,
                     const char *y_name) {
    if (pool.mode != CUDNN_POOLING_MAX && pool.mode != CUDNN_POOLING_MAX_DETERMINISTIC &&
        pool.mode != CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING &&
        pool.mode != CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING) {
        return fail(CUDNN_STATUS_BAD_PARAM, "mode is %d, not a cudnnPoolingMode_t", static_cast<int>(pool.mode));
    }
    if (pool.nan_opt != CUDNN_NOT_PROPAGATE_NAN && pool.nan_opt != CUDNN_PROPAGATE_NAN) {
        return fail(CUDNN_STATUS_BAD_PARAM, "nan_opt is %d, not a cudnnNanPropagation_t",
                    static_cast<int>(pool.nan_opt));
    }
    LIBREDNN_CHECK(check_view(x, x_name));
    LIBREDNN_CHECK(check_view(y, y_name));
    if (x.rank() < 3 || y.rank() != x.rank()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s and %s have %d and %d dims; both need the same, at least 3", x_name,
                    y_name, x.rank(), y.rank());
    }
    const size_t spatial = static_cast<size_t>(x.rank() - 2);
    if (pool.window.size() != spatial || pool.padding.size() != spatial || pool.stride.size() != spatial) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "the geometry has %zu windows, %zu paddings and %zu strides; the tensors have %zu spatial dims",
                    pool.window.size(), pool.padding.size(), pool.stride.size(), spatial);
    }
    for (size_t d = 0; d < spatial; ++d) {
        if (pool.window[d] < 1 || pool.padding[d] < 0 || pool.stride[d] < 1) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "spatial dim %zu has window %lld, padding %lld and stride %lld; window and stride must be "
                        "positive, padding non-negative",
                        d, static_cast<long long>(pool.window[d]), static_cast<long long>(pool.padding[d]),
                        static_cast<long long>(pool.stride[d]));
        }
        if (x.dims[2 + d] + 2 * pool.padding[d] < pool.window[d]) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "spatial dim %zu of %s is %lld, with padding %lld smaller than the "
                        "window %lld",
                        d, x_name, static_cast<long long>(x.dims[2 + d]), static_cast<long long>(pool.padding[d]),
                        static_cast<long long>(pool.window[d]));
        }
    }
    const std::vector<int64_t> expected = pooling_output_dims(pool, x.dims);
    if (y.dims != expected) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s; pooling %s %s produces %s", y_name,
                    dims_to_string(y.dims).c_str(), x_name, dims_to_string(x.dims).c_str(),
                    dims_to_string(expected).c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace

std::vector<int64_t> pooling_output_dims(const PoolingGeometry &pool, const std::vector<int64_t> &x) {
    if (x.size() < 2 || pool.window.size() + 2 != x.size() || pool.padding.size() + 2 != x.size() ||
        pool.stride.size() + 2 != x.size()) {
        return {};
    }
    std::vector<int64_t> y = {x[0], x[1]};
    for (size_t d = 0; d + 2 < x.size(); ++d) {
        const int64_t room = x[d + 2] + 2 * pool.padding[d] - pool.window[d];
        y.push_back(room < 0 ? 0 : 1 + room / pool.stride[d]);
    }
    return y;
}

Status pooling_forward(const PoolingGeometry &pool, double alpha, const TensorView &x, double beta,
                       const TensorView &y) {
    LIBREDNN_CHECK(check_pooling(pool, x, "x", y, "y"));
    for_each_index(y.dims, [&](const Index &out) {
        double value = 0;
        if (is_max_mode(pool.mode)) {
            const WindowMax best = window_max(pool, x, out);
            if (best.found) value = best.value;
        } else {
            double sum = 0;
            for_each_in_window(pool, x.dims, out, [&](const Index &i) { sum += x.read(i); });
            const int64_t divisor = average_divisor(pool, x.dims, out);
            if (divisor > 0) value = sum / static_cast<double>(divisor);
        }
        store_blended(y, out, alpha * value, beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status pooling_backward(const PoolingGeometry &pool, double alpha, const TensorView &dy, const TensorView &x,
                        double beta, const TensorView &dx) {
    LIBREDNN_CHECK(check_pooling(pool, dx, "dx", dy, "dy"));
    if (is_max_mode(pool.mode)) {
        LIBREDNN_CHECK(check_view(x, "x"));
        if (x.dims != dx.dims) {
            return fail(CUDNN_STATUS_BAD_PARAM, "x is %s; it must have the dims of dx, %s",
                        dims_to_string(x.dims).c_str(), dims_to_string(dx.dims).c_str());
        }
    }

    // The gradient of every dx element, accumulated in double, in row-major order of dx's dims.
    std::vector<double> gradient(static_cast<size_t>(dx.element_count()), 0.0);
    const std::vector<int64_t> row_major = packed_strides(dx.dims);
    auto gradient_at = [&](const Index &i) -> double & {
        int64_t position = 0;
        for (size_t axis = 0; axis < i.size(); ++axis) position += i[axis] * row_major[axis];
        return gradient[static_cast<size_t>(position)];
    };

    for_each_index(dy.dims, [&](const Index &out) {
        const double incoming = dy.read(out);
        if (is_max_mode(pool.mode)) {
            const WindowMax best = window_max(pool, x, out);
            if (best.found) gradient_at(best.position) += incoming;
        } else {
            const int64_t divisor = average_divisor(pool, dx.dims, out);
            if (divisor == 0) return;
            for_each_in_window(pool, dx.dims, out,
                               [&](const Index &i) { gradient_at(i) += incoming / static_cast<double>(divisor); });
        }
    });
    for_each_index(dx.dims, [&](const Index &in) { store_blended(dx, in, alpha * gradient_at(in), beta); });
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
