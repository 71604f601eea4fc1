// Host transform with padding, folding or unfolding, and the layouts the copy solver cannot split:
// every x element is sent to its place in y. (The reference goes the other way, from each y element
// to its source, so the two are independent ways to the same answer.)
#include "host/common/host_element.hpp"
#include "host/transform/solvers.hpp"

namespace librednn {

namespace {

// Where x element `at` lands in y, or false when padding crops it away. Padding refers to the
// unfolded geometry: folding pads first, then moves each block of spatial positions into channels
// (channel k * C + c holds padded channel c at the block's k-th position, row-major); unfolding moves
// channels back into blocks, then pads.
bool destination_of(const TransformProblem &problem, const int64_t *at, int64_t *to) {
    const TensorGeometry &x = problem.x, &y = problem.y;
    const int nb_dims = x.nb_dims;
    const bool folds = problem.folds();
    if (folds && problem.unfold) {
        int64_t fold_product = 1;
        for (int i = 2; i < nb_dims; ++i) fold_product *= problem.fold[i - 2];
        const int64_t channels = x.dims[1] / fold_product;
        int64_t block = at[1] / channels;
        to[0] = at[0];
        to[1] = at[1] % channels;
        for (int i = nb_dims - 1; i >= 2; --i) {
            const int64_t f = problem.fold[i - 2];
            to[i] = at[i] * f + block % f;
            block /= f;
        }
        for (int i = 0; i < nb_dims; ++i) {
            to[i] += problem.pad_before[i];
            if (to[i] < 0 || to[i] >= y.dims[i]) return false;
        }
        return true;
    }
    int64_t padded[kMaxDims];
    for (int i = 0; i < nb_dims; ++i) {
        padded[i] = at[i] + problem.pad_before[i];
        if (padded[i] < 0 || padded[i] >= x.dims[i] + problem.pad_before[i] + problem.pad_after[i]) return false;
    }
    if (!folds) {
        for (int i = 0; i < nb_dims; ++i) to[i] = padded[i];
        return true;
    }
    const int64_t padded_channels = x.dims[1] + problem.pad_before[1] + problem.pad_after[1];
    int64_t block = 0;
    for (int i = 2; i < nb_dims; ++i) {
        const int64_t f = problem.fold[i - 2];
        block = block * f + padded[i] % f;
        to[i] = padded[i] / f;
    }
    to[0] = padded[0];
    to[1] = block * padded_channels + padded[1];
    return true;
}

template <class In, class Out>
void scatter(const TransformProblem &problem, const TransformBuffers &buffers) {
    using InE = host::HostElement<In>;
    using OutE = host::HostElement<Out>;
    const TensorGeometry &x = problem.x, &y = problem.y;
    const In *source = static_cast<const In *>(buffers.x);
    Out *target = static_cast<Out *>(buffers.y);
    // Padding with zeros and folding write y outright (alpha 1, beta 0: validation holds them to it),
    // zeros wherever no x element lands. Unfolding and cropping map x onto all of y, and blend.
    const bool outright = problem.writes_outright();
    int64_t index[kMaxDims] = {};
    if (outright) {
        const Out zero = OutE::from_double(0.0);
        do {
            target[y.offset(index)] = zero;
        } while (next_index(index, y.dims, y.nb_dims));
    }
    const double alpha = problem.alpha, beta = outright ? 0.0 : problem.beta;
    for (int i = 0; i < kMaxDims; ++i) index[i] = 0;
    do {
        int64_t to[kMaxDims];
        if (!destination_of(problem, index, to)) continue;
        Out &out = target[y.offset(to)];
        double value = alpha * static_cast<double>(InE::load(source[x.offset(index)]));
        if (beta != 0.0) value += beta * static_cast<double>(OutE::load(out));
        out = OutE::from_double(value);
    } while (next_index(index, x.dims, x.nb_dims));
}

class HostTransformReshape final : public TransformSolver {
public:
    const char *name() const override { return "host_transform_reshape"; }
    SolverId id() const override { return SolverId::host_transform_reshape; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const TransformProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const TransformProblem &problem,
               const TransformBuffers &buffers) const override {
        bool known = false;
        host::with_host_type(problem.x.dtype, [&](auto in) {
            known = host::with_host_type(problem.y.dtype, [&](auto out) {
                scatter<typename decltype(in)::type, typename decltype(out)::type>(problem, buffers);
            });
        });
        if (!known) return fail(CUDNN_STATUS_NOT_SUPPORTED, "the host transform does not move this data type");
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const TransformSolver &host_transform_reshape_solver() {
    static const HostTransformReshape solver;
    return solver;
}

}  // namespace librednn
