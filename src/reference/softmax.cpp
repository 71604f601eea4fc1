// Reference softmax in double.
#include "reference/softmax.hpp"

#include "ops/common/element_access.hpp"

#include <cmath>
#include <limits>

namespace librednn::reference {

namespace {

// Calls visit(index) for every index of `dims`.
template <class Visit>
void for_each_index(const int64_t *dims, int nb_dims, Visit &&visit) {
    int64_t index[kMaxDims] = {};
    do {
        visit(index);
    } while (next_index(index, dims, nb_dims));
}

}  // namespace

void softmax(const SoftmaxProblem &problem, const SoftmaxBuffers &buffers) {
    const TensorGeometry &out = problem.result();
    const int nb_dims = out.nb_dims;
    // group_dims enumerate the groups (reduced dims collapsed to 1), member_dims the elements of one.
    int64_t group_dims[kMaxDims], member_dims[kMaxDims];
    for (int i = 0; i < nb_dims; ++i) {
        const bool reduced = problem.mode == CUDNN_SOFTMAX_MODE_INSTANCE ? i >= 1 : i == 1;
        group_dims[i] = reduced ? 1 : out.dims[i];
        member_dims[i] = reduced ? out.dims[i] : 1;
    }
    const bool forward = problem.direction == Direction::forward;
    auto load = [](const void *data, const TensorGeometry &g, const int64_t *index) {
        return load_scalar(data, g.dtype, g.offset(index));
    };

    for_each_index(group_dims, nb_dims, [&](const int64_t *group) {
        auto for_each_member = [&](auto &&visit) {
            for_each_index(member_dims, nb_dims, [&](const int64_t *member) {
                int64_t index[kMaxDims];
                for (int i = 0; i < nb_dims; ++i) index[i] = group[i] + member[i];
                visit(index);
            });
        };
        // The group's sums first, then each element from them.
        double max = -std::numeric_limits<double>::infinity(), sum = 0.0;
        if (forward) {
            if (problem.algorithm != CUDNN_SOFTMAX_FAST) {
                for_each_member([&](const int64_t *i) { max = std::fmax(max, load(buffers.x, problem.x, i)); });
            } else {
                max = 0.0;
            }
            for_each_member([&](const int64_t *i) { sum += std::exp(load(buffers.x, problem.x, i) - max); });
        } else if (problem.algorithm == CUDNN_SOFTMAX_LOG) {
            for_each_member([&](const int64_t *i) { sum += load(buffers.dy, problem.dy, i); });
        } else {
            for_each_member(
                [&](const int64_t *i) { sum += load(buffers.dy, problem.dy, i) * load(buffers.y, problem.y, i); });
        }
        for_each_member([&](const int64_t *i) {
            double value = 0.0;
            if (forward) {
                const double x = load(buffers.x, problem.x, i);
                value = problem.algorithm == CUDNN_SOFTMAX_LOG ? (x - max) - std::log(sum) : std::exp(x - max) / sum;
            } else {
                const double y = load(buffers.y, problem.y, i), dy = load(buffers.dy, problem.dy, i);
                value = problem.algorithm == CUDNN_SOFTMAX_LOG ? dy - std::exp(y) * sum : y * (dy - sum);
            }
            const int64_t at = out.offset(i);
            double result = problem.alpha * value;
            if (problem.beta != 0.0) result += problem.beta * load_scalar(buffers.result, out.dtype, at);
            store_scalar(buffers.result, out.dtype, at, result);
        });
    });
}

}  // namespace librednn::reference
