// Reference tensor operations in double.
#include "reference/tensor_ops.hpp"

#include "ops/common/element_access.hpp"

#include <cmath>

namespace librednn::reference {

void add_tensor(const AddTensorProblem &problem, const AddTensorBuffers &buffers) {
    const TensorGeometry &c = problem.c;
    const TensorGeometry a = broadcast_view(problem.a, c);
    int64_t index[kMaxDims] = {};
    do {
        const int64_t at = c.offset(index);
        double value = problem.alpha * load_scalar(buffers.a, a.dtype, a.offset(index));
        if (problem.beta != 0.0) value += problem.beta * load_scalar(buffers.c, c.dtype, at);
        store_scalar(buffers.c, c.dtype, at, value);
    } while (next_index(index, c.dims, c.nb_dims));
}

double op_tensor_value(cudnnOpTensorOp_t op, cudnnNanPropagation_t nan_opt, double a, double b) {
    const bool propagate = nan_opt == CUDNN_PROPAGATE_NAN && (std::isnan(a) || std::isnan(b));
    switch (op) {
        case CUDNN_OP_TENSOR_ADD: return a + b;
        case CUDNN_OP_TENSOR_MUL: return a * b;
        // fmin/fmax return the number when one operand is NaN: the not-propagating behaviour.
        case CUDNN_OP_TENSOR_MIN: return propagate ? std::nan("") : std::fmin(a, b);
        case CUDNN_OP_TENSOR_MAX: return propagate ? std::nan("") : std::fmax(a, b);
        case CUDNN_OP_TENSOR_SQRT: return std::sqrt(a);
        case CUDNN_OP_TENSOR_NOT: return 1.0 - a;
    }
    return std::nan("");
}

void op_tensor(const OpTensorProblem &problem, const OpTensorBuffers &buffers) {
    const TensorGeometry &c = problem.c, &a = problem.a;
    const bool unary = problem.unary();
    const TensorGeometry b = unary ? a : broadcast_view(problem.b, c);
    int64_t index[kMaxDims] = {};
    do {
        const int64_t at = c.offset(index);
        const double a_value = problem.alpha1 * load_scalar(buffers.a, a.dtype, a.offset(index));
        const double b_value = unary ? 0.0 : problem.alpha2 * load_scalar(buffers.b, b.dtype, b.offset(index));
        double value = op_tensor_value(problem.op, problem.nan_opt, a_value, b_value);
        if (problem.beta != 0.0) value += problem.beta * load_scalar(buffers.c, c.dtype, at);
        store_scalar(buffers.c, c.dtype, at, value);
    } while (next_index(index, c.dims, c.nb_dims));
}

void set_tensor(const SetTensorProblem &problem, const SetTensorBuffers &buffers) {
    const TensorGeometry &y = problem.y;
    int64_t index[kMaxDims] = {};
    do {
        const int64_t at = y.offset(index);
        const double value = problem.kind == SetTensorProblem::Kind::set
                                 ? problem.value
                                 : problem.value * load_scalar(buffers.y, y.dtype, at);
        store_scalar(buffers.y, y.dtype, at, value);
    } while (next_index(index, y.dims, y.nb_dims));
}

}  // namespace librednn::reference
