// Host cudnnSetTensor and cudnnScaleTensor: every element of y set to a value, or scaled.
#include "host/common/channel_split.hpp"
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/tensor/solvers.hpp"

namespace librednn {

namespace {

// Element by element, for vectorised tensors of 8 dims (no room to split their lanes into a dim of
// their own): the geometry places each channel's lane.
template <class T>
void set_each_element(const SetTensorProblem &problem, T *data) {
    using E = host::HostElement<T>;
    using Compute = typename E::Compute;
    const TensorGeometry &y = problem.y;
    const bool set = problem.kind == SetTensorProblem::Kind::set;
    const T constant = E::store(static_cast<Compute>(problem.value));
    const Compute alpha = static_cast<Compute>(problem.value);
    int64_t index[kMaxDims] = {};
    do {
        T &element = data[y.offset(index)];
        element = set ? constant : E::store(alpha * E::load(element));
    } while (next_index(index, y.dims, y.nb_dims));
}

class HostSetTensor final : public SetTensorSolver {
public:
    const char *name() const override { return "host_set_tensor"; }
    SolverId id() const override { return SolverId::host_set_tensor; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const SetTensorProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const SetTensorProblem &problem,
               const SetTensorBuffers &buffers) const override {
        const TensorGeometry *operands[1] = {&problem.y};
        TensorGeometry split[1];
        if (!host::split_channels<1>(operands, split)) {
            host::with_host_type(problem.y.dtype, [&](auto tag) {
                using T = typename decltype(tag)::type;
                set_each_element(problem, static_cast<T *>(buffers.y));
            });
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
