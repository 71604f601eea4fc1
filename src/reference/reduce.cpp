// Reference reduction in double.
#include "reference/reduce.hpp"

#include "ops/common/element_access.hpp"

#include <cmath>
#include <cstdint>

namespace librednn::reference {

void reduce(const ReduceProblem &problem, const ReduceBuffers &buffers) {
    const TensorGeometry &a = problem.a, &c = problem.c;
    const int nb_dims = a.nb_dims;
    int64_t member_dims[kMaxDims];
    for (int i = 0; i < nb_dims; ++i) member_dims[i] = problem.reduced(i) ? a.dims[i] : 1;
    const int64_t length = problem.reduction_length();
    const bool propagate = problem.nan_opt == CUDNN_PROPAGATE_NAN;
    const cudnnReduceTensorOp_t op = problem.op;

    int64_t out[kMaxDims] = {};
    int64_t element = 0;  // C's elements in row-major order: where its index goes
    do {
        double acc = 0.0;
        if (op == CUDNN_REDUCE_TENSOR_MUL || op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS) acc = 1.0;
        bool have_choice = false, chose_nan = false;
        int64_t choice = 0, position = 0;
        int64_t member[kMaxDims] = {};
        do {
            int64_t index[kMaxDims];
            for (int i = 0; i < nb_dims; ++i) index[i] = problem.reduced(i) ? member[i] : out[i];
            const double v = load_scalar(buffers.a, a.dtype, a.offset(index));
            switch (op) {
                case CUDNN_REDUCE_TENSOR_ADD:
                case CUDNN_REDUCE_TENSOR_AVG: acc += v; break;
                case CUDNN_REDUCE_TENSOR_MUL: acc *= v; break;
                case CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS:
                    if (v != 0.0) acc *= v;
                    break;
                case CUDNN_REDUCE_TENSOR_NORM1: acc += std::fabs(v); break;
                case CUDNN_REDUCE_TENSOR_NORM2: acc += v * v; break;
                case CUDNN_REDUCE_TENSOR_MIN:
                case CUDNN_REDUCE_TENSOR_MAX:
                case CUDNN_REDUCE_TENSOR_AMAX: {
                    const double candidate = op == CUDNN_REDUCE_TENSOR_AMAX ? std::fabs(v) : v;
                    if (chose_nan) break;  // a propagated NaN stays
                    if (std::isnan(candidate)) {
                        if (propagate) {
                            acc = candidate;
                            choice = position;
                            chose_nan = have_choice = true;
                        }
                        break;
                    }
                    const bool better =
                        !have_choice || (op == CUDNN_REDUCE_TENSOR_MIN ? candidate < acc : candidate > acc);
                    if (better) {
                        acc = candidate;
                        choice = position;
                        have_choice = true;
                    }
                    break;
                }
            }
            ++position;
        } while (next_index(member, member_dims, nb_dims));

        if (op == CUDNN_REDUCE_TENSOR_AVG) acc /= static_cast<double>(length);
        if (op == CUDNN_REDUCE_TENSOR_NORM2) acc = std::sqrt(acc);
        // Every element NaN (without propagation): nothing was chosen.
        if (reduce_op_has_indices(op) && !have_choice) acc = std::nan("");

        const int64_t at = c.offset(out);
        double result = problem.alpha * acc;
        if (problem.beta != 0.0) result += problem.beta * load_scalar(buffers.c, c.dtype, at);
        store_scalar(buffers.c, c.dtype, at, result);
        if (problem.indices) static_cast<uint32_t *>(buffers.indices)[element] = static_cast<uint32_t>(choice);
        ++element;
    } while (next_index(out, c.dims, nb_dims));
}

}  // namespace librednn::reference
