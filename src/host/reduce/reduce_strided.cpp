// Host reduction over any strides. Outputs and the elements each reduces are both strided walks; a
// third walk operand carries positions (row-major numbers), so that indices and tie-breaking follow
// the row-major order whatever order memory is visited in.
#include "host/common/host_element.hpp"
#include "host/common/strided_walk.hpp"
#include "host/reduce/solvers.hpp"

#include <cmath>
#include <cstdint>

namespace librednn {

namespace {

// Row-major strides of `dims`, ignoring dims where `skip` says so (they get stride 0).
void row_major_strides(const int64_t *dims, int nb_dims, const bool *skip, int64_t *strides) {
    int64_t next = 1;
    for (int i = nb_dims - 1; i >= 0; --i) {
        strides[i] = skip[i] ? 0 : next;
        if (!skip[i]) next *= dims[i];
    }
}

// The running result of one output element.
struct Accumulator {
    cudnnReduceTensorOp_t op;
    double value = 0.0;
    bool have = false, nan_seen = false;
    int64_t choice = 0, nan_position = 0;

    void add(double v, int64_t position) {
        switch (op) {
            case CUDNN_REDUCE_TENSOR_ADD:
            case CUDNN_REDUCE_TENSOR_AVG: value += v; return;
            case CUDNN_REDUCE_TENSOR_MUL: value *= v; return;
            case CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS:
                if (v != 0.0) value *= v;
                return;
            case CUDNN_REDUCE_TENSOR_NORM1: value += std::fabs(v); return;
            case CUDNN_REDUCE_TENSOR_NORM2: value += v * v; return;
            default: break;
        }
        const double candidate = op == CUDNN_REDUCE_TENSOR_AMAX ? std::fabs(v) : v;
        if (std::isnan(candidate)) {
            if (!nan_seen || position < nan_position) nan_position = position;
            nan_seen = true;
            return;
        }
        const bool better = op == CUDNN_REDUCE_TENSOR_MIN ? candidate < value : candidate > value;
        if (!have || better || (candidate == value && position < choice)) {
            value = candidate;
            choice = position;
            have = true;
        }
    }
};

template <class In, class Out>
void run_reduce(const ReduceProblem &problem, const ReduceBuffers &buffers) {
    using InE = host::HostElement<In>;
    using OutE = host::HostElement<Out>;
    const TensorGeometry &a = problem.a, &c = problem.c;
    const int nb_dims = a.nb_dims;
    bool reduced[kMaxDims], kept[kMaxDims];
    int64_t member_dims[kMaxDims];
    for (int i = 0; i < nb_dims; ++i) {
        reduced[i] = problem.reduced(i);
        kept[i] = !reduced[i];
        member_dims[i] = reduced[i] ? a.dims[i] : 1;
    }
    int64_t output_number[kMaxDims], member_position[kMaxDims];
    row_major_strides(c.dims, nb_dims, reduced, output_number);
    row_major_strides(a.dims, nb_dims, kept, member_position);
    const int64_t *group_strides[3] = {c.strides, a.strides, output_number};
    const int64_t *member_strides[2] = {a.strides, member_position};
    const auto groups = host::make_walk<3>(nb_dims, c.dims, group_strides);
    const auto members = host::make_walk<2>(nb_dims, member_dims, member_strides);

    const In *input = static_cast<const In *>(buffers.a);
    Out *output = static_cast<Out *>(buffers.c);
    uint32_t *indices = static_cast<uint32_t *>(buffers.indices);
    const bool propagate = problem.nan_opt == CUDNN_PROPAGATE_NAN;
    const bool chooses = reduce_op_has_indices(problem.op);
    const double length = static_cast<double>(problem.reduction_length());

    host::for_each_row(groups, [&](const int64_t *at, int64_t count, const int64_t *step) {
        for (int64_t j = 0; j < count; ++j) {
            const int64_t out_offset = at[0] + j * step[0], in_base = at[1] + j * step[1];
            const int64_t number = at[2] + j * step[2];
            Accumulator acc{problem.op};
            if (problem.op == CUDNN_REDUCE_TENSOR_MUL || problem.op == CUDNN_REDUCE_TENSOR_MUL_NO_ZEROS)
                acc.value = 1.0;
            host::for_each_row(members, [&](const int64_t *m, int64_t m_count, const int64_t *m_step) {
                const In *row = input + in_base + m[0];
                for (int64_t k = 0; k < m_count; ++k) {
                    acc.add(static_cast<double>(InE::load(row[k * m_step[0]])), m[1] + k * m_step[1]);
                }
            });
            double result = acc.value;
            if (problem.op == CUDNN_REDUCE_TENSOR_AVG) result /= length;
            if (problem.op == CUDNN_REDUCE_TENSOR_NORM2) result = std::sqrt(result);
            int64_t choice = acc.choice;
            if (chooses && propagate && acc.nan_seen) {
                result = std::nan("");
                choice = acc.nan_position;
            } else if (chooses && !acc.have) {
                result = std::nan("");
                choice = 0;
            }
            double blended = problem.alpha * result;
            if (problem.beta != 0.0) blended += problem.beta * static_cast<double>(OutE::load(output[out_offset]));
            output[out_offset] = OutE::from_double(blended);
            if (problem.indices) indices[number] = static_cast<uint32_t>(choice);
        }
    });
}

class HostReduceStrided final : public ReduceSolver {
public:
    const char *name() const override { return "host_reduce_strided"; }
    SolverId id() const override { return SolverId::host_reduce_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const ReduceProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const ReduceProblem &problem, const ReduceBuffers &buffers) const override {
        host::with_host_type(problem.a.dtype, [&](auto in) {
            host::with_host_type(problem.c.dtype, [&](auto out) {
                run_reduce<typename decltype(in)::type, typename decltype(out)::type>(problem, buffers);
            });
        });
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const ReduceSolver &host_reduce_strided_solver() {
    static const HostReduceStrided solver;
    return solver;
}

}  // namespace librednn
