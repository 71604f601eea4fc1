// Host activation over packed tensors that share one layout: a single flat loop.
#include "host/activation/activation_rows.hpp"
#include "host/activation/solvers.hpp"

namespace librednn {

namespace {

class HostActivationPacked final : public ActivationSolver {
public:
    const char *name() const override { return "host_activation_packed"; }
    SolverId id() const override { return SolverId::host_activation_packed; }
    Backend backend() const override { return Backend::host; }

    Applicability applicable(const ActivationProblem &problem) const override {
        const TensorGeometry &out = problem.result();
        if (!is_dense(out)) return Applicability::no("needs a packed output (no gaps between elements)");
        const bool forward = problem.direction == Direction::forward;
        const TensorGeometry *inputs[] = {&problem.x, forward ? &problem.x : &problem.y,
                                          forward ? &problem.x : &problem.dy};
        for (const TensorGeometry *input : inputs) {
            if (!same_layout(*input, out)) return Applicability::no("needs every tensor in the output's layout");
        }
        return Applicability::yes();
    }

    Status run(const ExecutionContext &, const ActivationProblem &problem,
               const ActivationBuffers &buffers) const override {
        const int64_t count = problem.result().element_count();
        host::with_floating_point_type(problem.x.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = typename host::HostElement<T>::Compute;
            const auto math = host::activation_math<C>(problem);
            const C alpha = static_cast<C>(problem.alpha), beta = static_cast<C>(problem.beta);
            T *out = static_cast<T *>(buffers.result);
            if (problem.direction == Direction::forward) {
                host::activation_forward_row(math, static_cast<const T *>(buffers.x), 1, out, 1, count, alpha, beta);
            } else {
                host::activation_backward_row(math, static_cast<const T *>(buffers.x), 1,
                                              static_cast<const T *>(buffers.y), 1, static_cast<const T *>(buffers.dy),
                                              1, out, 1, count, alpha, beta);
            }
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const ActivationSolver &host_activation_packed_solver() {
    static const HostActivationPacked solver;
    return solver;
}

}  // namespace librednn
