// Host cudnnOpTensor: C = op(alpha1 * A, alpha2 * B) + beta * C with B broadcast, in the compute type.
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/tensor/solvers.hpp"

#include <cmath>
#include <type_traits>

namespace librednn {

namespace {

template <class Compute>
Compute apply(cudnnOpTensorOp_t op, bool propagate_nan, Compute a, Compute b) {
    switch (op) {
        case CUDNN_OP_TENSOR_ADD: return a + b;
        case CUDNN_OP_TENSOR_MUL: return a * b;
        case CUDNN_OP_TENSOR_MIN:
            if (propagate_nan && (std::isnan(a) || std::isnan(b))) return a + b;  // NaN either way
            return std::fmin(a, b);
        case CUDNN_OP_TENSOR_MAX:
            if (propagate_nan && (std::isnan(a) || std::isnan(b))) return a + b;
            return std::fmax(a, b);
        case CUDNN_OP_TENSOR_SQRT: return std::sqrt(a);
        case CUDNN_OP_TENSOR_NOT: return Compute(1) - a;
    }
    return a;
}

// In is A's and B's element type, Out C's; the compute type is double when either is double.
template <class In, class Out>
void run_op_tensor(const OpTensorProblem &problem, const OpTensorBuffers &buffers) {
    using InE = host::HostElement<In>;
    using OutE = host::HostElement<Out>;
    using Compute = std::conditional_t<
        std::is_same_v<typename InE::Compute, double> || std::is_same_v<typename OutE::Compute, double>, double, float>;
    const TensorGeometry &c = problem.c;
    const bool unary = problem.unary();
    const TensorGeometry b = unary ? problem.a : broadcast_view(problem.b, c);
    const Compute alpha1 = static_cast<Compute>(problem.alpha1), alpha2 = static_cast<Compute>(problem.alpha2),
                  beta = static_cast<Compute>(problem.beta);
    const bool propagate = problem.nan_opt == CUDNN_PROPAGATE_NAN;
    const cudnnOpTensorOp_t op = problem.op;
    const In *a_data = static_cast<const In *>(buffers.a);
    const In *b_data = static_cast<const In *>(unary ? buffers.a : buffers.b);
    Out *c_data = static_cast<Out *>(buffers.c);
    const int64_t *strides[3] = {c.strides, problem.a.strides, b.strides};
    host::for_each_row(host::make_walk<3>(c.nb_dims, c.dims, strides), [&](const int64_t *at, int64_t count,
                                                                           const int64_t *step) {
        Out *out = c_data + at[0];
        const In *a_row = a_data + at[1];
        const In *b_row = b_data + at[2];
        for (int64_t j = 0; j < count; ++j) {
            const Compute a_value = alpha1 * static_cast<Compute>(InE::load(a_row[j * step[1]]));
            const Compute b_value = unary ? Compute(0) : alpha2 * static_cast<Compute>(InE::load(b_row[j * step[2]]));
            Compute value = apply(op, propagate, a_value, b_value);
            if (beta != Compute(0)) value += beta * static_cast<Compute>(OutE::load(out[j * step[0]]));
            out[j * step[0]] = OutE::store(static_cast<typename OutE::Compute>(value));
        }
    });
}

class HostOpTensor final : public OpTensorSolver {
public:
    const char *name() const override { return "host_op_tensor"; }
    SolverId id() const override { return SolverId::host_op_tensor; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const OpTensorProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const OpTensorProblem &problem,
               const OpTensorBuffers &buffers) const override {
        host::with_host_type(problem.a.dtype, [&](auto in) {
            host::with_host_type(problem.c.dtype, [&](auto out) {
                run_op_tensor<typename decltype(in)::type, typename decltype(out)::type>(problem, buffers);
            });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const OpTensorSolver &host_op_tensor_solver() {
    static const HostOpTensor solver;
    return solver;
}

}  // namespace librednn
