// Host LRN across channels over any strides. The channels of one image at one spatial position (a
// pillar) depend only on each other, so pillars are split over the threads. Each pillar's s_c = k +
// alpha / n * (window sum of x^2) is computed once per channel in double; forward then gives
// y_c = x_c * s_c^-beta, backward q_c = dy_c * x_c * s_c^(-beta - 1) and
// dx_j = dy_j * s_j^-beta - 2 alpha beta / n * x_j * (sum of q over the channels whose window holds j).
#include "core/fault_injection.hpp"
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/lrn/solvers.hpp"

#include <cmath>
#include <vector>

namespace librednn {

namespace {

// The offset of pillar `pillar` (row-major over N and the spatial dims) in `g`.
int64_t pillar_offset(const TensorGeometry &g, const int64_t *dims, int rank, int64_t pillar) {
    int64_t offset = 0;
    for (int axis = rank - 1; axis >= 2; --axis) {
        offset += (pillar % dims[axis]) * g.strides[axis];
        pillar /= dims[axis];
    }
    return offset + pillar * g.strides[0];
}

template <class T>
void lrn_pillar(const LrnProblem &p, const LrnBuffers &b, int64_t pillar, std::vector<double> &scratch) {
    using E = host::HostElement<T>;
    using C = typename E::Compute;
    const int64_t channels = p.x.dims[1];
    const int rank = p.x.nb_dims;
    const T *x = static_cast<const T *>(b.x) + pillar_offset(p.x, p.x.dims, rank, pillar);
    const int64_t xc = p.x.strides[1];
    const bool forward = p.direction == Direction::forward;
    const TensorGeometry &out_g = p.result();
    T *out = static_cast<T *>(b.result) + pillar_offset(out_g, p.x.dims, rank, pillar);
    const int64_t oc = out_g.strides[1];
    // scratch: s_c, then (backward) q_c.
    scratch.assign(static_cast<size_t>(2 * channels), 0.0);
    double *s = scratch.data(), *q = s + channels;
    const double scale = p.lrn_alpha / p.n;
    for (int64_t c = 0; c < channels; ++c) {
        const int64_t first = c - p.behind() < 0 ? 0 : c - p.behind();
        const int64_t last = c + p.ahead() > channels - 1 ? channels - 1 : c + p.ahead();
        double squares = 0.0;
        for (int64_t w = first; w <= last; ++w) {
            const double v = static_cast<double>(E::load(x[w * xc]));
            squares += v * v;
        }
        s[c] = p.lrn_k + scale * squares;
    }
    const C alpha = static_cast<C>(p.alpha), beta = static_cast<C>(p.beta);
    if (forward) {
        for (int64_t c = 0; c < channels; ++c) {
            const C value = static_cast<C>(static_cast<double>(E::load(x[c * xc])) * std::pow(s[c], -p.lrn_beta));
            C result = alpha * value;
            if (beta != C(0)) result += beta * E::load(out[c * oc]);
            out[c * oc] = E::store(result);
        }
        return;
    }
    const T *dy = static_cast<const T *>(b.dy) + pillar_offset(p.dy, p.x.dims, rank, pillar);
    const int64_t dyc = p.dy.strides[1];
    for (int64_t c = 0; c < channels; ++c) {
        q[c] = static_cast<double>(E::load(dy[c * dyc])) * static_cast<double>(E::load(x[c * xc])) *
               std::pow(s[c], -p.lrn_beta - 1.0);
    }
    const double factor = 2.0 * p.lrn_alpha * p.lrn_beta / p.n;
    for (int64_t j = 0; j < channels; ++j) {
        const int64_t first = j - p.ahead() < 0 ? 0 : j - p.ahead();
        const int64_t last = j + p.behind() > channels - 1 ? channels - 1 : j + p.behind();
        double sum = 0.0;
        for (int64_t c = first; c <= last; ++c) sum += q[c];
        const double gradient = static_cast<double>(E::load(dy[j * dyc])) * std::pow(s[j], -p.lrn_beta) -
                                factor * static_cast<double>(E::load(x[j * xc])) * sum;
        C result = alpha * static_cast<C>(gradient);
        if (beta != C(0)) result += beta * E::load(out[j * oc]);
        out[j * oc] = E::store(result);
    }
}

class HostLrnStrided final : public LrnSolver {
public:
    const char *name() const override { return "host_lrn_strided"; }
    SolverId id() const override { return SolverId::host_lrn_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const LrnProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const LrnProblem &problem, const LrnBuffers &buffers) const override {
        const int64_t pillars = problem.x.element_count() / problem.x.dims[1];
        // Each thread's scratch, allocated here: an allocation failure reaches the call's guard.
        LIBREDNN_FAULT_HOST_ALLOCATION();
        std::vector<std::vector<double>> scratch(static_cast<size_t>(host::host_thread_count()));
        for (auto &s : scratch) s.reserve(static_cast<size_t>(2 * problem.x.dims[1]));
        host::with_floating_point_type(problem.x.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            host::parallel_for(pillars, 16, [&](int64_t begin, int64_t end, int part) {
                for (int64_t pillar = begin; pillar < end; ++pillar)
                    lrn_pillar<T>(problem, buffers, pillar, scratch[static_cast<size_t>(part)]);
            });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const LrnSolver &host_lrn_strided_solver() {
    static const HostLrnStrided solver;
    return solver;
}

}  // namespace librednn
