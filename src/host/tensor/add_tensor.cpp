// Host cudnnAddTensor: C = alpha * A + beta * C with A broadcast (stride 0 on its dims of extent 1).
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/tensor/solvers.hpp"

namespace librednn {

namespace {

class HostAddTensor final : public AddTensorSolver {
public:
    const char *name() const override { return "host_add_tensor"; }
    SolverId id() const override { return SolverId::host_add_tensor; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const AddTensorProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const AddTensorProblem &problem,
               const AddTensorBuffers &buffers) const override {
        const TensorGeometry &c = problem.c;
        const TensorGeometry a = broadcast_view(problem.a, c);
        host::with_floating_point_type(c.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using E = host::HostElement<T>;
            using Compute = typename E::Compute;
            const Compute alpha = static_cast<Compute>(problem.alpha), beta = static_cast<Compute>(problem.beta);
            const T *a_data = static_cast<const T *>(buffers.a);
            T *c_data = static_cast<T *>(buffers.c);
            const int64_t *strides[2] = {c.strides, a.strides};
            host::for_each_row(host::make_walk<2>(c.nb_dims, c.dims, strides),
                               [&](const int64_t *at, int64_t count, const int64_t *step) {
                                   T *out = c_data + at[0];
                                   const T *in = a_data + at[1];
                                   for (int64_t j = 0; j < count; ++j) {
                                       Compute value = alpha * E::load(in[j * step[1]]);
                                       if (beta != Compute(0)) value += beta * E::load(out[j * step[0]]);
                                       out[j * step[0]] = E::store(value);
                                   }
                               });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const AddTensorSolver &host_add_tensor_solver() {
    static const HostAddTensor solver;
    return solver;
}

}  // namespace librednn
