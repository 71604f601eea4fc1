// Host batch normalisation over any strides. Each parameter element is independent: it owns the values
// it normalises (a channel's over N and the spatial dims, or one position's over N), so the parameter
// elements are split over the threads. Statistics take two passes over x in double (the mean, then the
// squared deviations from it), so the variance is never a difference of large sums; the backward sums
// are in double too. Each output element is computed in the compute type (float, double for double).
#include "host/batch_norm/solvers.hpp"

#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"

#include <cmath>

namespace librednn {

namespace {

// The x axes each parameter element keeps (its coordinates) and those it reduces over.
struct Axes {
    int kept = 0, reduced = 0;
    int kept_axis[kMaxDims] = {}, reduced_axis[kMaxDims] = {};
    int64_t reduced_count = 1;
};

Axes axes_of(const BatchNormProblem &p) {
    Axes a;
    for (int i = 0; i < p.x.nb_dims; ++i) {
        if (p.parameters.dims[i] == 1) {
            a.reduced_axis[a.reduced++] = i;
            a.reduced_count *= p.x.dims[i];
        } else {
            a.kept_axis[a.kept++] = i;
        }
    }
    return a;
}

// The tensors each value has an element in: x; y (dy backward); dx; y backward (the activation's mask);
// z (dz backward). Those a problem does not use are skipped.
enum Operand { kX, kSecond, kDx, kMask, kZ, kOperands };

// Offsets, within each tensor, of one parameter element's values, visited in one fixed order.
class Values {
public:
    Values(const BatchNormProblem &p, const Axes &a, int64_t parameter) : p_(p), a_(a) {
        const bool backward = p.phase == BatchNormPhase::backward;
        tensors_[kX] = &p.x;
        tensors_[kSecond] = backward ? &p.dy : &p.y;
        tensors_[kDx] = backward ? &p.dx : nullptr;
        tensors_[kMask] = backward && p.activation() ? &p.y : nullptr;
        tensors_[kZ] = p.adds() ? &p.z : nullptr;
        // The parameter element's coordinates, row-major over its kept axes.
        int64_t rest = parameter;
        for (int k = a.kept - 1; k >= 0; --k) {
            const int axis = a.kept_axis[k];
            coordinate_[axis] = rest % p.x.dims[axis];
            rest /= p.x.dims[axis];
        }
    }

    int64_t parameter_offset() const { return offset(p_.parameters, coordinate_); }

    // visit(offsets) for every value, offsets[k] in tensor k (Operand), in the same order each time.
    template <class Visit>
    void for_each(Visit &&visit) const {
        int64_t at[kMaxDims], offsets[kOperands] = {};
        for (int i = 0; i < p_.x.nb_dims; ++i) at[i] = coordinate_[i];
        for (int64_t r = 0; r < a_.reduced_count; ++r) {
            for (int k = 0; k < kOperands; ++k) offsets[k] = tensors_[k] ? offset(*tensors_[k], at) : 0;
            visit(static_cast<const int64_t *>(offsets));
            for (int k = a_.reduced - 1; k >= 0; --k) {
                const int axis = a_.reduced_axis[k];
                if (++at[axis] < p_.x.dims[axis]) break;
                at[axis] = 0;
            }
        }
    }

private:
    static int64_t offset(const TensorGeometry &g, const int64_t *at) {
        int64_t offset = 0;
        for (int i = 0; i < g.nb_dims; ++i) offset += at[i] * g.strides[i];
        return offset;
    }

    const BatchNormProblem &p_;
    const Axes &a_;
    const TensorGeometry *tensors_[kOperands] = {};
    int64_t coordinate_[kMaxDims] = {};
};

// Blends `value` into parameter-typed `target`: alpha * value + beta * target, beta == 0 never reading.
template <class P>
void blend_parameter(P *target, int64_t offset, double alpha, double beta, double value) {
    double result = alpha * value;
    if (beta != 0.0) result += beta * static_cast<double>(target[offset]);
    target[offset] = static_cast<P>(result);
}

template <class T, class P>
void normalise_one(const BatchNormProblem &p, const Axes &a, const BatchNormBuffers &b, int64_t parameter) {
    using E = host::HostElement<T>;
    using C = typename E::Compute;
    const T *x = static_cast<const T *>(b.x);
    T *out = static_cast<T *>(b.result);
    const Values values(p, a, parameter);
    const int64_t po = values.parameter_offset();
    const double count = static_cast<double>(a.reduced_count);
    const double scale = static_cast<double>(static_cast<const P *>(b.scale)[po]);

    // The statistics: given (inference; backward with saved values) or of this batch, in double.
    double mean = 0.0, inv_std = 0.0, variance = 0.0;
    const bool given = p.phase == BatchNormPhase::inference || (p.phase == BatchNormPhase::backward && p.saved);
    if (given) {
        mean = static_cast<double>(static_cast<const P *>(b.mean)[po]);
        const double second = static_cast<double>(static_cast<const P *>(b.variance)[po]);
        inv_std = p.phase == BatchNormPhase::inference ? 1.0 / std::sqrt(second + p.epsilon) : second;
    } else {
        double sum = 0.0;
        values.for_each([&](const int64_t *o) { sum += static_cast<double>(E::load(x[o[kX]])); });
        mean = sum / count;
        double squares = 0.0;
        values.for_each([&](const int64_t *o) {
            const double deviation = static_cast<double>(E::load(x[o[kX]])) - mean;
            squares += deviation * deviation;
        });
        variance = squares / count;
        inv_std = 1.0 / std::sqrt(variance + p.epsilon);
    }

    if (p.phase != BatchNormPhase::backward) {
        const double bias = static_cast<double>(static_cast<const P *>(b.bias)[po]);
        // y = alpha * (scale * inv_std * (x - mean) + bias) + beta * y in the compute type.
        const C gain = static_cast<C>(scale * inv_std), mean_c = static_cast<C>(mean), bias_c = static_cast<C>(bias);
        const C alpha = static_cast<C>(p.alpha), beta = static_cast<C>(p.beta);
        const T *z = static_cast<const T *>(b.z);
        values.for_each([&](const int64_t *o) {
            C value = gain * (E::load(x[o[kX]]) - mean_c) + bias_c;
            if (p.adds()) value += E::load(z[o[kZ]]);
            if (p.activation() && value < C(0)) value = C(0);  // ReLU; NaN passes through
            C result = alpha * value;
            if (beta != C(0)) result += beta * E::load(out[o[kSecond]]);
            out[o[kSecond]] = E::store(result);
        });
        if (p.phase == BatchNormPhase::training) {
            if (p.running) {
                // With factor 1 the old values are not read (they may be uninitialised).
                const double keep = 1.0 - p.factor;
                const double unbiased = variance * count / (count - 1.0);
                blend_parameter(static_cast<P *>(b.running_mean), po, p.factor, keep, mean);
                blend_parameter(static_cast<P *>(b.running_variance), po, p.factor, keep, unbiased);
            }
            if (p.saved) {
                static_cast<P *>(b.saved_mean)[po] = static_cast<P>(mean);
                static_cast<P *>(b.saved_inv_variance)[po] = static_cast<P>(inv_std);
            }
        }
        return;
    }

    // Backward: g = dy, masked by y > 0 after an activation (and written to dz after an add);
    // dbias = sum g, dscale = sum g * x_hat, dx = scale * inv_std * (g - dbias / M - x_hat * dscale / M).
    const T *dy = static_cast<const T *>(b.dy);
    const T *y = static_cast<const T *>(b.y);
    T *dz = static_cast<T *>(b.dz);
    auto gradient = [&](const int64_t *o) {
        const C g = E::load(dy[o[kSecond]]);
        return p.activation() && !(E::load(y[o[kMask]]) > C(0)) ? C(0) : g;
    };
    double dbias = 0.0, dscale = 0.0;
    values.for_each([&](const int64_t *o) {
        const double g = static_cast<double>(gradient(o));
        dbias += g;
        dscale += g * (static_cast<double>(E::load(x[o[kX]])) - mean) * inv_std;
    });
    const C gain = static_cast<C>(scale * inv_std);
    const C mean_c = static_cast<C>(mean), inv_std_c = static_cast<C>(inv_std);
    const C bias_term = static_cast<C>(dbias / count), scale_term = static_cast<C>(dscale / count);
    const C alpha = static_cast<C>(p.alpha), beta = static_cast<C>(p.beta);
    values.for_each([&](const int64_t *o) {
        const C g = gradient(o);
        const C x_hat = (E::load(x[o[kX]]) - mean_c) * inv_std_c;
        C result = alpha * (gain * (g - bias_term - x_hat * scale_term));
        if (beta != C(0)) result += beta * E::load(out[o[kDx]]);
        // dz after dx: where dz is dy's memory, gradient() reads dy before it is replaced (by itself, masked).
        out[o[kDx]] = E::store(result);
        if (p.adds()) dz[o[kZ]] = E::store(g);
    });
    blend_parameter(static_cast<P *>(b.dscale), po, p.param_alpha, p.param_beta, dscale);
    blend_parameter(static_cast<P *>(b.dbias), po, p.param_alpha, p.param_beta, dbias);
}

class HostBatchNormStrided final : public BatchNormSolver {
public:
    const char *name() const override { return "host_batch_norm_strided"; }
    SolverId id() const override { return SolverId::host_batch_norm_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const BatchNormProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const BatchNormProblem &problem,
               const BatchNormBuffers &buffers) const override {
        const Axes axes = axes_of(problem);
        host::with_floating_point_type(problem.x.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            host::parallel_for(problem.parameter_count(), 1, [&](int64_t begin, int64_t end, int) {
                for (int64_t parameter = begin; parameter < end; ++parameter) {
                    if (problem.x.dtype == CUDNN_DATA_DOUBLE) {
                        normalise_one<T, double>(problem, axes, buffers, parameter);
                    } else {
                        normalise_one<T, float>(problem, axes, buffers, parameter);
                    }
                }
            });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const BatchNormSolver &host_batch_norm_strided_solver() {
    static const HostBatchNormStrided solver;
    return solver;
}

}  // namespace librednn
