// Host softmax over any strides. The groups (images, or image and position) and the elements of one
// group are both strided walks, so packed layouts collapse to long contiguous rows.
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/softmax/solvers.hpp"

#include <cmath>
#include <limits>

namespace librednn {

namespace {

// Operand 0 is the output; forward 1 is x; backward 1 is y and 2 is dy.
constexpr int kOperands = 3;

template <class T>
void run_softmax(const SoftmaxProblem &problem, const SoftmaxBuffers &buffers) {
    using E = host::HostElement<T>;
    using C = typename E::Compute;
    const TensorGeometry &out = problem.result();
    const bool forward = problem.direction == Direction::forward;
    const TensorGeometry &in1 = forward ? problem.x : problem.y;
    const TensorGeometry &in2 = forward ? problem.x : problem.dy;
    int64_t group_dims[kMaxDims], member_dims[kMaxDims];
    for (int i = 0; i < out.nb_dims; ++i) {
        const bool reduced = problem.mode == CUDNN_SOFTMAX_MODE_INSTANCE ? i >= 1 : i == 1;
        group_dims[i] = reduced ? 1 : out.dims[i];
        member_dims[i] = reduced ? out.dims[i] : 1;
    }
    const int64_t *strides[kOperands] = {out.strides, in1.strides, in2.strides};
    const auto groups = host::make_walk<kOperands>(out.nb_dims, group_dims, strides);
    const auto members = host::make_walk<kOperands>(out.nb_dims, member_dims, strides);

    T *result = static_cast<T *>(buffers.result);
    const T *first = static_cast<const T *>(forward ? buffers.x : buffers.y);
    const T *second = static_cast<const T *>(forward ? buffers.x : buffers.dy);
    const C alpha = static_cast<C>(problem.alpha), beta = static_cast<C>(problem.beta);
    const cudnnSoftmaxAlgorithm_t algorithm = problem.algorithm;

    auto run_group = [&](const int64_t *base) {
        // Visits every element of the group: visit(output offset, input 1 offset, input 2 offset).
        auto for_each_member = [&](auto &&visit) {
            host::for_each_row(members, [&](const int64_t *at, int64_t count, const int64_t *step) {
                for (int64_t j = 0; j < count; ++j) {
                    visit(base[0] + at[0] + j * step[0], base[1] + at[1] + j * step[1], base[2] + at[2] + j * step[2]);
                }
            });
        };
        // Sums in double: a long row in float would lose the small terms.
        double max = -std::numeric_limits<double>::infinity(), sum = 0.0;
        if (forward) {
            if (algorithm != CUDNN_SOFTMAX_FAST) {
                for_each_member([&](int64_t, int64_t i, int64_t) {
                    const double v = E::load(first[i]);
                    if (v > max) max = v;
                });
            } else {
                max = 0.0;
            }
            const C shift = static_cast<C>(max);
            for_each_member([&](int64_t, int64_t i, int64_t) { sum += std::exp(E::load(first[i]) - shift); });
        } else if (algorithm == CUDNN_SOFTMAX_LOG) {
            for_each_member([&](int64_t, int64_t, int64_t i) { sum += E::load(second[i]); });
        } else {
            for_each_member([&](int64_t, int64_t y, int64_t dy) {
                sum += static_cast<double>(E::load(second[dy])) * E::load(first[y]);
            });
        }
        const C shift = static_cast<C>(max), total = static_cast<C>(sum);
        const C log_total = static_cast<C>(std::log(sum)), inverse = static_cast<C>(1.0 / sum);
        for_each_member([&](int64_t o, int64_t i1, int64_t i2) {
            C value;
            if (forward) {
                const C x = E::load(first[i1]);
                value = algorithm == CUDNN_SOFTMAX_LOG ? (x - shift) - log_total : std::exp(x - shift) * inverse;
            } else {
                const C y = E::load(first[i1]), dy = E::load(second[i2]);
                value = algorithm == CUDNN_SOFTMAX_LOG ? dy - std::exp(y) * total : y * (dy - total);
            }
            value *= alpha;
            if (beta != C(0)) value += beta * E::load(result[o]);
            result[o] = E::store(value);
        });
    };

    host::for_each_row(groups, [&](const int64_t *at, int64_t count, const int64_t *step) {
        for (int64_t j = 0; j < count; ++j) {
            const int64_t base[kOperands] = {at[0] + j * step[0], at[1] + j * step[1], at[2] + j * step[2]};
            run_group(base);
        }
    });
}

class HostSoftmaxStrided final : public SoftmaxSolver {
public:
    const char *name() const override { return "host_softmax_strided"; }
    SolverId id() const override { return SolverId::host_softmax_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const SoftmaxProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const SoftmaxProblem &problem, const SoftmaxBuffers &buffers) const override {
        host::with_floating_point_type(problem.result().dtype,
                                       [&](auto tag) { run_softmax<typename decltype(tag)::type>(problem, buffers); });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const SoftmaxSolver &host_softmax_strided_solver() {
    static const HostSoftmaxStrided solver;
    return solver;
}

}  // namespace librednn
