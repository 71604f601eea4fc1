// Host cudnnSetTensor and cudnnScaleTensor: every element of y set to a value, or scaled.
#include "host/common/channel_split.hpp"
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/tensor/solvers.hpp"
#include "reference/tensor_ops.hpp"

namespace librednn {

namespace {

class HostSetTensor final : public SetTensorSolver {
public:
    const char *name() const override { return "host_set_tensor"; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const SetTensorProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const SetTensorProblem &problem,
               const SetTensorBuffers &buffers) const override {
        const TensorGeometry *operands[1] = {&problem.y};
        TensorGeometry split[1];
        if (!host::split_channels<1>(operands, split)) {
            // A vectorised tensor of 8 dims has no room for the split lanes: element by element.
            reference::set_tensor(problem, buffers);
            return CUDNN_STATUS_SUCCESS;
        }
        const TensorGeometry &y = split[0];
        const bool set = problem.kind == SetTensorProblem::Kind::set;
        host::with_host_type(y.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            using E = host::HostElement<T>;
            using Compute = typename E::Compute;
            T *data = static_cast<T *>(buffers.y);
            const T constant = E::store(static_cast<Compute>(problem.value));
            const Compute alpha = static_cast<Compute>(problem.value);
            const int64_t *strides[1] = {y.strides};
            host::for_each_row(host::make_walk<1>(y.nb_dims, y.dims, strides),
                               [&](const int64_t *at, int64_t count, const int64_t *step) {
                                   T *row = data + at[0];
                                   for (int64_t j = 0; j < count; ++j) {
                                       row[j * step[0]] = set ? constant : E::store(alpha * E::load(row[j * step[0]]));
                                   }
                               });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const SetTensorSolver &host_set_tensor_solver() {
    static const HostSetTensor solver;
    return solver;
}

}  // namespace librednn
