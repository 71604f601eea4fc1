// Host divisive normalisation over any strides. Elements are split over the threads; each window is
// summed afresh in double (never by a running add-and-subtract). With c = lrn_alpha / n^d:
// - forward: s_p = k + c * sum over W(p) of (x_j - m_p)^2 and y_p = x_p * s_p^-beta, per element;
// - backward, in two passes over all elements: first g_p = dy_p x_p s_p^(-beta - 1) and
//   dy_p s_p^-beta into per-call double buffers (and dMeans_p = 2 beta c g_p * sum over W(p) of
//   (x_j - m_p)); then dx_q = dy_q s_q^-beta - 2 beta c * sum over the p whose window holds q of
//   g_p (x_q - m_p).
// In place, the inputs an output aliases are first copied into temp/temp2 (plan_divnorm_buffers).
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/divnorm/solvers.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

namespace librednn {

namespace {

// The problem's dims as N, C, depth, height, width (a 4-d tensor has depth 1) and the window.
struct Box {
    int64_t dims[5] = {};
    int64_t window[5] = {1, 1, 1, 1, 1};  // n along the spatial dims the tensor has
    int64_t behind[5] = {};               // window[i] - 1 - behind[i] ahead

    explicit Box(const DivNormProblem &p) {
        const int spatial = p.spatial_dims();
        dims[0] = p.x.dims[0];
        dims[1] = p.x.dims[1];
        for (int i = 2; i < 5; ++i) {
            const int axis = i - (5 - 2 - spatial);  // the tensor's dim for box dim i, < 2 when padded
            dims[i] = axis >= 2 ? p.x.dims[axis] : 1;
            window[i] = axis >= 2 ? p.n : 1;
            behind[i] = axis >= 2 ? p.behind() : 0;
        }
    }
    int64_t ahead(int i) const { return window[i] - 1 - behind[i]; }

    // Element `flat` (row-major over dims) as coordinates.
    void unravel(int64_t flat, int64_t *at) const {
        for (int i = 4; i >= 0; --i) {
            at[i] = flat % dims[i];
            flat /= dims[i];
        }
    }
    int64_t flat(const int64_t *at) const {
        int64_t f = 0;
        for (int i = 0; i < 5; ++i) f = f * dims[i] + at[i];
        return f;
    }
    // W(p) along spatial dim i: [first, last].
    void window_of(const int64_t *p, int i, int64_t *first, int64_t *last) const {
        *first = std::max<int64_t>(p[i] - behind[i], 0);
        *last = std::min<int64_t>(p[i] - behind[i] + window[i] - 1, dims[i] - 1);
    }
    // The p whose window holds q, along spatial dim i: [first, last].
    void holders_of(const int64_t *q, int i, int64_t *first, int64_t *last) const {
        *first = std::max<int64_t>(q[i] - ahead(i), 0);
        *last = std::min<int64_t>(q[i] + behind[i], dims[i] - 1);
    }
};

// A tensor's strides over the box's dims (0 along a padded depth).
struct BoxStrides {
    int64_t s[5] = {};
    BoxStrides(const TensorGeometry &g) {
        const int spatial = g.nb_dims - 2;
        s[0] = g.strides[0];
        s[1] = g.strides[1];
        for (int i = 2; i < 5; ++i) {
            const int axis = i - (5 - 2 - spatial);
            s[i] = axis >= 2 ? g.strides[axis] : 0;
        }
    }
    int64_t offset(const int64_t *at) const {
        int64_t o = 0;
        for (int i = 0; i < 5; ++i) o += at[i] * s[i];
        return o;
    }
};

template <class T>
double load(const T *base, int64_t offset) {
    return static_cast<double>(host::HostElement<T>::load(base[offset]));
}

// out = alpha * value + beta * out, in the compute type; beta == 0 never reads out.
template <class T>
void store_blended(T *out, int64_t offset, double value, double alpha, double beta) {
    using E = host::HostElement<T>;
    using C = typename E::Compute;
    C result = static_cast<C>(alpha) * static_cast<C>(value);
    if (beta != 0.0) result += static_cast<C>(beta) * E::load(out[offset]);
    out[offset] = E::store(result);
}

// Sums over W(p) of (x_j - m_p)^2 and of x_j - m_p (m_p = 0 without means).
template <class T>
void window_sums(const Box &box, const BoxStrides &xs, const T *x, const T *means, const int64_t *p, double *squares,
                 double *differences) {
    const double m = means ? load(means, xs.offset(p)) : 0.0;
    int64_t first[5], last[5];
    for (int i = 2; i < 5; ++i) box.window_of(p, i, &first[i], &last[i]);
    const int64_t base = p[0] * xs.s[0] + p[1] * xs.s[1];
    double sq = 0.0, diff = 0.0;
    for (int64_t d = first[2]; d <= last[2]; ++d)
        for (int64_t h = first[3]; h <= last[3]; ++h) {
            const int64_t row = base + d * xs.s[2] + h * xs.s[3];
            for (int64_t w = first[4]; w <= last[4]; ++w) {
                const double v = load(x, row + w * xs.s[4]) - m;
                sq += v * v;
                diff += v;
            }
        }
    *squares = sq;
    *differences = diff;
}

template <class T>
void forward(const DivNormProblem &p, const DivNormBuffers &b) {
    const Box box(p);
    const BoxStrides xs(p.x), ys(p.y);
    const T *x = static_cast<const T *>(b.x);
    const T *means = static_cast<const T *>(b.means);
    T *y = static_cast<T *>(b.result);
    const double scale = p.scale();
    host::parallel_for(p.x.element_count(), 256, [&](int64_t begin, int64_t end, int) {
        int64_t at[5];
        for (int64_t e = begin; e < end; ++e) {
            box.unravel(e, at);
            const int64_t xo = xs.offset(at);
            double squares, differences;
            window_sums(box, xs, x, means, at, &squares, &differences);
            const double s = p.lrn_k + scale * squares;
            store_blended(y, ys.offset(at), load(x, xo) * std::pow(s, -p.lrn_beta), p.alpha, p.beta);
        }
    });
}

template <class T>
void backward(const DivNormProblem &p, const DivNormBuffers &b) {
    const Box box(p);
    const BoxStrides xs(p.x), dxs(p.dx);
    const T *x = static_cast<const T *>(b.x);
    const T *means = static_cast<const T *>(b.means);
    const T *dy = static_cast<const T *>(b.dy);
    T *dx = static_cast<T *>(b.result);
    T *d_means = p.d_means ? static_cast<T *>(b.d_means) : nullptr;
    const double scale = p.scale(), factor = 2.0 * p.lrn_beta * scale;
    const int64_t count = p.x.element_count();
    // g_p and dy_p s_p^-beta, by element (row-major over the dims). Allocated here: an allocation
    // failure reaches the call's guard.
    std::vector<double> g(static_cast<size_t>(count)), direct(static_cast<size_t>(count));
    host::parallel_for(count, 256, [&](int64_t begin, int64_t end, int) {
        int64_t at[5];
        for (int64_t e = begin; e < end; ++e) {
            box.unravel(e, at);
            const int64_t xo = xs.offset(at);
            double squares, differences;
            window_sums(box, xs, x, means, at, &squares, &differences);
            const double s = p.lrn_k + scale * squares;
            const double dyp = load(dy, xo);
            const double gp = dyp * load(x, xo) * std::pow(s, -p.lrn_beta - 1.0);
            g[static_cast<size_t>(e)] = gp;
            direct[static_cast<size_t>(e)] = dyp * std::pow(s, -p.lrn_beta);
            if (d_means) store_blended(d_means, dxs.offset(at), factor * gp * differences, p.alpha, p.beta);
        }
    });
    host::parallel_for(count, 256, [&](int64_t begin, int64_t end, int) {
        int64_t q[5], first[5], last[5], at[5];
        for (int64_t e = begin; e < end; ++e) {
            box.unravel(e, q);
            const double xq = load(x, xs.offset(q));
            for (int i = 2; i < 5; ++i) box.holders_of(q, i, &first[i], &last[i]);
            at[0] = q[0];
            at[1] = q[1];
            double sum = 0.0;
            for (at[2] = first[2]; at[2] <= last[2]; ++at[2])
                for (at[3] = first[3]; at[3] <= last[3]; ++at[3])
                    for (at[4] = first[4]; at[4] <= last[4]; ++at[4]) {
                        const double m = means ? load(means, xs.offset(at)) : 0.0;
                        sum += g[static_cast<size_t>(box.flat(at))] * (xq - m);
                    }
            store_blended(dx, dxs.offset(q), direct[static_cast<size_t>(e)] - factor * sum, p.alpha, p.beta);
        }
    });
}

template <class T>
void run_typed(const DivNormProblem &p, const DivNormBuffers &b) {
    if (p.direction == Direction::forward) {
        forward<T>(p, b);
    } else {
        backward<T>(p, b);
    }
}

class HostDivNormStrided final : public DivNormSolver {
public:
    const char *name() const override { return "host_divnorm_strided"; }
    SolverId id() const override { return SolverId::host_divnorm_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const DivNormProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const DivNormProblem &problem, const DivNormBuffers &buffers) const override {
        const DivNormPlan plan = plan_divnorm_buffers(problem, buffers);
        for (int i = 0; i < plan.copy_count; ++i) std::memmove(plan.copies[i].to, plan.copies[i].from, plan.copy_bytes);
        switch (problem.x.dtype) {
            case CUDNN_DATA_FLOAT: run_typed<float>(problem, plan.buffers); break;
            case CUDNN_DATA_DOUBLE: run_typed<double>(problem, plan.buffers); break;
            case CUDNN_DATA_HALF: run_typed<Half>(problem, plan.buffers); break;
            default:
                return fail(CUDNN_STATUS_NOT_SUPPORTED, "the host divisive normalisation takes float, double and half");
        }
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const DivNormSolver &host_divnorm_strided_solver() {
    static const HostDivNormStrided solver;
    return solver;
}

}  // namespace librednn
