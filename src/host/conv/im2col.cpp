// The host's cudnnIm2Col: each row of the matrix (one output position of one image) filled channel by
// channel, tap by tap, moving the elements' bits (the matrix has x's type); window positions in the
// padding write zero bits, which are +0 in every type.
#include "host/conv/solvers.hpp"

#include "ops/common/element_access.hpp"

#include <vector>

namespace librednn {

namespace {

template <class Bits>
void unroll(const ConvProblem &problem, const Im2ColBuffers &buffers) {
    const TensorGeometry &x = problem.x;
    const int spatial = problem.spatial_dims;
    const int64_t positions = problem.output_size(), taps = problem.filter_size();
    const int64_t channels = problem.input_channels(), columns = channels * taps;
    const Bits *source = static_cast<const Bits *>(buffers.x);
    Bits *row = static_cast<Bits *>(buffers.col);
    // Per tap (in column order): its offset along each spatial dim of the window, dilated.
    std::vector<int64_t> window(static_cast<size_t>(taps * spatial));
    for (int64_t t = 0; t < taps; ++t) {
        int64_t rest = problem.mode == CUDNN_CONVOLUTION ? taps - 1 - t : t;
        for (int i = spatial - 1; i >= 0; --i) {
            window[static_cast<size_t>(t * spatial + i)] = rest % problem.filter_extent(i) * problem.dilation[i];
            rest /= problem.filter_extent(i);
        }
    }
    int64_t corner[kMaxConvSpatialDims] = {};  // the window's first input position for this row
    for (int64_t n = 0; n < problem.batch(); ++n) {
        int64_t out[kMaxConvSpatialDims] = {};
        for (int64_t p = 0; p < positions; ++p, row += columns) {
            for (int i = 0; i < spatial; ++i) corner[i] = out[i] * problem.stride[i] - problem.pad[i];
            for (int64_t t = 0; t < taps; ++t) {
                int64_t offset = n * x.strides[0];
                bool inside = true;
                for (int i = 0; i < spatial; ++i) {
                    const int64_t at = corner[i] + window[static_cast<size_t>(t * spatial + i)];
                    inside = inside && at >= 0 && at < problem.input_extent(i);
                    offset += at * x.strides[i + 2];
                }
                for (int64_t c = 0; c < channels; ++c) {
                    row[c * taps + t] = inside ? source[offset + c * x.strides[1]] : Bits(0);
                }
            }
            for (int i = spatial - 1; i >= 0; --i) {
                if (++out[i] < problem.output_extent(i)) break;
                out[i] = 0;
            }
        }
    }
}

class HostConvIm2Col final : public Im2ColSolver {
public:
    const char *name() const override { return "host_conv_im2col"; }
    SolverId id() const override { return SolverId::host_conv_im2col; }
    Backend backend() const override { return Backend::host; }
    Applicability applicable(const ConvProblem &) const override { return Applicability::yes(); }

    Status run(const ExecutionContext &, const ConvProblem &problem, const Im2ColBuffers &buffers) const override {
        switch (scalar_size_of(problem.x.dtype)) {
            case 1: unroll<uint8_t>(problem, buffers); break;
            case 2: unroll<uint16_t>(problem, buffers); break;
            case 4: unroll<uint32_t>(problem, buffers); break;
            case 8: unroll<uint64_t>(problem, buffers); break;
            default: return fail(CUDNN_STATUS_NOT_SUPPORTED, "host_conv_im2col copies elements of 1, 2, 4 or 8 bytes");
        }
        return CUDNN_STATUS_SUCCESS;
    }
};

}  // namespace

const Im2ColSolver &host_conv_im2col_solver() {
    static const HostConvIm2Col solver;
    return solver;
}

}  // namespace librednn
