// Host pooling over any strides. Each (image, channel) plane is independent: forward reduces each
// output's window; backward sends each dy to the inputs its forward value came from (the first maximum
// in window order, or every input of an average), summed per plane in the compute type, then blended.
#include "core/fault_injection.hpp"
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/pooling/solvers.hpp"

#include <cmath>
#include <vector>

namespace librednn {

namespace {

struct Plane {
    int spatial = 0;
    int64_t in[kMaxPoolingSpatialDims] = {}, out[kMaxPoolingSpatialDims] = {};
    int64_t in_size = 1, out_size = 1;
    double window_size = 1;  // the including average's divisor: up to 6 dims of 2^31 overflow int64
};

Plane plane_of(const PoolingProblem &p) {
    Plane s;
    s.spatial = p.spatial_dims;
    for (int d = 0; d < s.spatial; ++d) {
        s.in[d] = p.x.dims[d + 2];
        s.out[d] = p.y.dims[d + 2];
        s.in_size *= s.in[d];
        s.out_size *= s.out[d];
        s.window_size *= static_cast<double>(p.window[d]);
    }
    return s;
}

// Offset of spatial position `linear` (row-major over `extents`) under `g`'s strides, plus the plane's.
int64_t offset_of(const TensorGeometry &g, int64_t n, int64_t c, const int64_t *at, int spatial) {
    int64_t offset = n * g.strides[0] + c * g.strides[1];
    for (int d = 0; d < spatial; ++d) offset += at[d] * g.strides[d + 2];
    return offset;
}

// Calls visit(input coordinates) for each input inside output `o`'s window, in window order (row-major
// over the window). Only the part of the window over the input is walked: a window that is mostly
// padding costs what it covers, not its size.
template <class Visit>
void for_each_in_window(const PoolingProblem &p, const Plane &s, const int64_t *o, Visit &&visit) {
    int64_t lo[kMaxPoolingSpatialDims], hi[kMaxPoolingSpatialDims], at[kMaxPoolingSpatialDims];
    for (int d = 0; d < s.spatial; ++d) {
        const int64_t start = o[d] * p.stride[d] - p.pad[d];
        lo[d] = start < 0 ? 0 : start;
        hi[d] = start + p.window[d] < s.in[d] ? start + p.window[d] : s.in[d];  // one past the last
        if (lo[d] >= hi[d]) return;
        at[d] = lo[d];
    }
    for (;;) {
        visit(static_cast<const int64_t *>(at));
        int d = s.spatial - 1;
        for (; d >= 0; --d) {
            if (++at[d] < hi[d]) break;
            at[d] = lo[d];
        }
        if (d < 0) return;
    }
}

template <class T>
void pool_plane(const PoolingProblem &p, const Plane &s, const PoolingBuffers &b, int64_t n, int64_t c,
                std::vector<typename host::HostElement<T>::Compute> &gradient) {
    using E = host::HostElement<T>;
    using C = typename E::Compute;
    const T *x = static_cast<const T *>(b.x);
    T *out = static_cast<T *>(b.result);
    const bool forward = p.direction == Direction::forward;
    const bool propagate = p.nan_opt == CUDNN_PROPAGATE_NAN;
    const C alpha = static_cast<C>(p.alpha), beta = static_cast<C>(p.beta);
    if (!forward) gradient.assign(static_cast<size_t>(s.in_size), C(0));
    int64_t o[kMaxPoolingSpatialDims] = {};
    for (int64_t linear = 0; linear < s.out_size; ++linear) {
        // The first maximum in window order (a NaN wins when propagated, and stays), or the sum.
        C value = C(0), best = C(0);
        bool found = false;
        int64_t best_at[kMaxPoolingSpatialDims] = {};
        int64_t count = 0;
        for_each_in_window(p, s, o, [&](const int64_t *at) {
            ++count;
            if (p.is_max()) {
                const C v = E::load(x[offset_of(p.x, n, c, at, s.spatial)]);
                if (std::isnan(v) && !propagate) return;
                if (found && std::isnan(best)) return;
                if (!found || std::isnan(v) || v > best) {
                    best = v;
                    found = true;
                    for (int d = 0; d < s.spatial; ++d) best_at[d] = at[d];
                }
            } else if (forward) {
                value += E::load(x[offset_of(p.x, n, c, at, s.spatial)]);
            }
        });
        const C divisor = static_cast<C>(p.mode == CUDNN_POOLING_AVERAGE_COUNT_INCLUDE_PADDING ? s.window_size : count);
        if (forward) {
            if (p.is_max()) {
                value = found ? best : C(0);
            } else {
                value = count > 0 ? value / divisor : C(0);
            }
            T &target = out[offset_of(p.y, n, c, o, s.spatial)];
            C result = alpha * value;
            if (beta != C(0)) result += beta * E::load(target);
            target = E::store(result);
        } else {
            const C g = E::load(static_cast<const T *>(b.dy)[offset_of(p.dy, n, c, o, s.spatial)]);
            auto slot = [&](const int64_t *at) -> C & {
                int64_t index = 0;
                for (int d = 0; d < s.spatial; ++d) index = index * s.in[d] + at[d];
                return gradient[static_cast<size_t>(index)];
            };
            if (p.is_max()) {
                if (found) slot(best_at) += g;
            } else if (count > 0) {
                const C share = g / divisor;
                for_each_in_window(p, s, o, [&](const int64_t *at) { slot(at) += share; });
            }
        }
        for (int d = s.spatial - 1; d >= 0; --d) {
            if (++o[d] < s.out[d]) break;
            o[d] = 0;
        }
    }
    if (forward) return;
    int64_t at[kMaxPoolingSpatialDims] = {};
    for (int64_t linear = 0; linear < s.in_size; ++linear) {
        T &target = out[offset_of(p.dx, n, c, at, s.spatial)];
        C result = alpha * gradient[static_cast<size_t>(linear)];
        if (beta != C(0)) result += beta * E::load(target);
        target = E::store(result);
        for (int d = s.spatial - 1; d >= 0; --d) {
            if (++at[d] < s.in[d]) break;
            at[d] = 0;
        }
    }
}

class HostPoolingStrided final : public PoolingSolver {
public:
    const char *name() const override { return "host_pooling_strided"; }
    SolverId id() const override { return SolverId::host_pooling_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const PoolingProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const PoolingProblem &problem, const PoolingBuffers &buffers) const override {
        const Plane s = plane_of(problem);
        const int64_t channels = problem.x.dims[1];
        host::with_floating_point_type(problem.x.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            // Each thread's gradient plane, allocated here: an allocation failure then reaches the call's
            // guard (ALLOC_FAILED) instead of ending the process from a thread.
            LIBREDNN_FAULT_HOST_ALLOCATION();
            std::vector<std::vector<typename host::HostElement<T>::Compute>> gradients(
                static_cast<size_t>(host::host_thread_count()));
            if (problem.direction == Direction::backward) {
                for (auto &gradient : gradients) gradient.reserve(static_cast<size_t>(s.in_size));
            }
            host::parallel_for(problem.x.dims[0] * channels, 1, [&](int64_t begin, int64_t end, int part) {
                for (int64_t plane = begin; plane < end; ++plane) {
                    pool_plane<T>(problem, s, buffers, plane / channels, plane % channels,
                                  gradients[static_cast<size_t>(part)]);
                }
            });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const PoolingSolver &host_pooling_strided_solver() {
    static const HostPoolingStrided solver;
    return solver;
}

}  // namespace librednn
