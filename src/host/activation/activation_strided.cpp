// Host activation over any strides: the tensors are walked row by row together.
#include "host/activation/activation_rows.hpp"
#include "host/activation/solvers.hpp"
#include "host/common/strided_walk.hpp"

namespace librednn {

namespace {

class HostActivationStrided final : public ActivationSolver {
public:
    const char *name() const override { return "host_activation_strided"; }
    SolverId id() const override { return SolverId::host_activation_strided; }
    Backend backend() const override { return Backend::host; }

    Applicability applicable(const ActivationProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const ActivationProblem &problem,
               const ActivationBuffers &buffers) const override {
        const TensorGeometry &out = problem.result();
        host::with_floating_point_type(problem.x.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using C = typename host::HostElement<T>::Compute;
            const auto math = host::activation_math<C>(problem);
            const C alpha = static_cast<C>(problem.alpha), beta = static_cast<C>(problem.beta);
            T *result = static_cast<T *>(buffers.result);
            const T *x = static_cast<const T *>(buffers.x);
            if (problem.direction == Direction::forward) {
                const int64_t *strides[2] = {out.strides, problem.x.strides};
                host::for_each_row(host::make_walk<2>(out.nb_dims, out.dims, strides),
                                   [&](const int64_t *at, int64_t count, const int64_t *step) {
                                       host::activation_forward_row(math, x + at[1], step[1], result + at[0], step[0],
                                                                    count, alpha, beta);
                                   });
            } else {
                const T *y = static_cast<const T *>(buffers.y);
                const T *dy = static_cast<const T *>(buffers.dy);
                const int64_t *strides[4] = {out.strides, problem.x.strides, problem.y.strides, problem.dy.strides};
                host::for_each_row(host::make_walk<4>(out.nb_dims, out.dims, strides),
                                   [&](const int64_t *at, int64_t count, const int64_t *step) {
                                       host::activation_backward_row(math, x + at[1], step[1], y + at[2], step[2],
                                                                     dy + at[3], step[3], result + at[0], step[0],
                                                                     count, alpha, beta);
                                   });
            }
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const ActivationSolver &host_activation_strided_solver() {
    static const HostActivationStrided solver;
    return solver;
}

}  // namespace librednn
