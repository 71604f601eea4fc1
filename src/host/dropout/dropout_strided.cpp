// Host dropout over any strides. Elements go in groups of four, the four words of one Philox draw
// (descriptors/dropout.hpp, "The draw"), and the groups are split over the threads; each thread walks
// its elements in row-major order of the input's and the output's own dims at once. Forward reads the
// key and the call number from the states and counts the call when done.
#include "descriptors/dropout.hpp"
#include "host/common/host_element.hpp"
#include "host/common/parallel.hpp"
#include "host/dropout/solvers.hpp"

#include <cstddef>
#include <cstring>
#include <type_traits>

namespace librednn {

namespace {

// A row-major walk over one tensor's elements that keeps the offset of the current one.
class Walk {
public:
    Walk(const TensorGeometry &g, int64_t position) : g_(g) {
        for (int axis = g.nb_dims - 1; axis >= 0; --axis) {
            index_[axis] = position % g.dims[axis];
            position /= g.dims[axis];
            offset_ += index_[axis] * g.strides[axis];
        }
    }
    int64_t offset() const { return offset_; }
    void next() {
        for (int axis = g_.nb_dims - 1; axis >= 0; --axis) {
            if (++index_[axis] < g_.dims[axis]) {
                offset_ += g_.strides[axis];
                return;
            }
            offset_ -= (g_.dims[axis] - 1) * g_.strides[axis];
            index_[axis] = 0;
        }
    }

private:
    const TensorGeometry &g_;
    int64_t index_[kMaxDims] = {};
    int64_t offset_ = 0;
};

template <class T>
void dropout_groups(const DropoutProblem &p, const DropoutBuffers &b, const DropoutState *state, int64_t first_group,
                    int64_t last_group) {
    using E = host::HostElement<T>;
    using C = typename E::Compute;
    const int64_t count = p.in.element_count();
    const int64_t begin = first_group * 4, end = last_group * 4 < count ? last_group * 4 : count;
    const C scale = std::is_same<C, double>::value ? static_cast<C>(dropout_scale_double(p.probability))
                                                   : static_cast<C>(dropout_scale_float(p.probability));
    const uint64_t threshold = dropout_threshold(p.probability);
    const T *in = static_cast<const T *>(b.in);
    T *out = static_cast<T *>(b.out);
    uint8_t *mask = static_cast<uint8_t *>(b.reserve);
    Walk from(p.in, begin), to(p.out, begin);
    Philox4x32 words{};
    for (int64_t e = begin; e < end; ++e, from.next(), to.next()) {
        bool kept;
        if (state != nullptr) {
            if (e == begin || e % 4 == 0) words = dropout_words(state->key, state->calls, static_cast<uint64_t>(e / 4));
            kept = words.word[e % 4] >= threshold;
            mask[e] = kept ? 1 : 0;
        } else {
            kept = mask[e] != 0;
        }
        out[to.offset()] = kept ? E::store(E::load(in[from.offset()]) * scale) : E::store(C(0));
    }
}

class HostDropoutStrided final : public DropoutSolver {
public:
    const char *name() const override { return "host_dropout_strided"; }
    SolverId id() const override { return SolverId::host_dropout_strided; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const DropoutProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const DropoutProblem &problem, const DropoutBuffers &buffers) const override {
        DropoutState state{};
        const bool forward = problem.direction == Direction::forward;
        if (forward) {
            std::memcpy(&state, buffers.states, sizeof state);
            if (state.magic != kDropoutStateMagic || state.version != kDropoutStateVersion) {
                return fail(CUDNN_STATUS_BAD_PARAM,
                            "the dropout states were not initialised by cudnnSetDropoutDescriptor (magic %08x, "
                            "version %u)",
                            state.magic, state.version);
            }
        }
        const int64_t groups = (problem.in.element_count() + 3) / 4;
        host::with_floating_point_type(problem.in.dtype, [&](auto tag) {
            using T = typename decltype(tag)::type;
            host::parallel_for(groups, 4096, [&](int64_t begin, int64_t end, int) {
                dropout_groups<T>(problem, buffers, forward ? &state : nullptr, begin, end);
            });
        });
        if (forward) {
            // Count the call: the next one draws fresh numbers.
            state.calls += 1;
            std::memcpy(static_cast<uint8_t *>(buffers.states) + offsetof(DropoutState, calls), &state.calls,
                        sizeof state.calls);
        }
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const DropoutSolver &host_dropout_strided_solver() {
    static const HostDropoutStrided solver;
    return solver;
}

}  // namespace librednn
