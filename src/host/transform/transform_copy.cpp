// Host transform without padding or folding: y = alpha * x + beta * y between any two layouts, in
// float (double when either side is double or int32).
#include "host/common/channel_split.hpp"
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/transform/solvers.hpp"

#include <type_traits>

namespace librednn {

namespace {

template <class In, class Out>
void copy(const TransformProblem &problem, const TensorGeometry &x, const TensorGeometry &y,
          const TransformBuffers &buffers) {
    using InE = host::HostElement<In>;
    using OutE = host::HostElement<Out>;
    const In *source = static_cast<const In *>(buffers.x);
    Out *target = static_cast<Out *>(buffers.y);
    const int64_t *strides[2] = {y.strides, x.strides};
    const auto walk = host::make_walk<2>(y.nb_dims, y.dims, strides);
    if constexpr (std::is_same_v<In, Out>) {
        if (problem.alpha == 1.0 && problem.beta == 0.0) {
            // A plain copy: the bits move unchanged (NaN payloads included).
            host::for_each_row(walk, [&](const int64_t *at, int64_t count, const int64_t *step) {
                for (int64_t j = 0; j < count; ++j) target[at[0] + j * step[0]] = source[at[1] + j * step[1]];
            });
            return;
        }
    }
    using Compute = std::conditional_t<
        std::is_same_v<typename InE::Compute, double> || std::is_same_v<typename OutE::Compute, double>, double, float>;
    const Compute alpha = static_cast<Compute>(problem.alpha), beta = static_cast<Compute>(problem.beta);
    host::for_each_row(walk, [&](const int64_t *at, int64_t count, const int64_t *step) {
        for (int64_t j = 0; j < count; ++j) {
            Out &out = target[at[0] + j * step[0]];
            Compute value = alpha * static_cast<Compute>(InE::load(source[at[1] + j * step[1]]));
            if (beta != Compute(0)) value += beta * static_cast<Compute>(OutE::load(out));
            if constexpr (std::is_same_v<Compute, double>) {
                out = OutE::from_double(value);
            } else {
                out = OutE::store(value);
            }
        }
    });
}

class HostTransformCopy final : public TransformSolver {
public:
    const char *name() const override { return "host_transform_copy"; }
    SolverId id() const override { return SolverId::host_transform_copy; }
    Backend backend() const override { return Backend::host; }

    Applicability applicable(const TransformProblem &problem) const override {
        if (problem.reshapes()) return Applicability::no("pads or folds; this solver only changes layouts");
        const TensorGeometry *operands[2] = {&problem.x, &problem.y};
        TensorGeometry split[2];
        if (!host::split_channels<2>(operands, split)) {
            return Applicability::no("no room for the vector lanes as extra dims (at most 8 in all)");
        }
        return Applicability::yes();
    }

    Status run(const ExecutionContext &, const TransformProblem &problem,
               const TransformBuffers &buffers) const override {
        const TensorGeometry *operands[2] = {&problem.x, &problem.y};
        TensorGeometry split[2];
        if (!host::split_channels<2>(operands, split)) {
            return fail(CUDNN_STATUS_BAD_PARAM, "the channels are not a multiple of the vector widths");
        }
        host::with_host_type(split[0].dtype, [&](auto in) {
            host::with_host_type(split[1].dtype, [&](auto out) {
                copy<typename decltype(in)::type, typename decltype(out)::type>(problem, split[0], split[1], buffers);
            });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const TransformSolver &host_transform_copy_solver() {
    static const HostTransformCopy solver;
    return solver;
}

}  // namespace librednn
