// cuDNN 8's rules for its FFT convolution algorithms, and the correlation every direction becomes.
#include "ops/conv/fft_geometry.hpp"

#include "core/status.hpp"
#include "ops/conv/validate.hpp"

#include <algorithm>

namespace librednn {

namespace {

int64_t power_of_two_at_least(int64_t n) {
    int64_t p = 1;
    while (p < n) p <<= 1;
    return p;
}

// cuDNN's "HW-packed" (DHW-packed in 3-d): the spatial dims packed innermost, N and C strides free.
bool spatially_packed(const TensorGeometry &g) {
    if (g.vector() != 1) return false;
    int64_t expected = 1;
    for (int d = g.nb_dims - 1; d >= 2; --d) {
        if (g.dims[d] != 1 && g.strides[d] != expected) return false;
        expected *= g.dims[d];
    }
    return true;
}

const char *x_name(const ConvProblem &p) { return p.direction == ConvDirection::backward_data ? "dxDesc" : "xDesc"; }
const char *y_name(const ConvProblem &p) { return p.direction == ConvDirection::forward ? "yDesc" : "dyDesc"; }

}  // namespace

Applicability fft_applicability(const ConvProblem &p, FftKind kind) {
    const bool tiled = kind == FftKind::tiled;
    const bool filter_gradient = p.direction == ConvDirection::backward_filter;
    const int dims = p.spatial_dims;
    // cuDNN 8's tables: FFT for 2-d convolutions only; FFT_TILING for 2-d, and for 3-d forward and
    // backward data (its 3-d backward filter table has no FFT algorithm).
    if (dims != 2 && !(tiled && dims == 3 && !filter_gradient)) {
        return Applicability::no_format("cuDNN's %s runs %s convolutions only, got %d spatial dims",
                                        tiled ? "FFT_TILING" : "FFT", tiled && !filter_gradient ? "2-d and 3-d" : "2-d",
                                        dims);
    }
    ConvTypeConfig config = ConvTypeConfig::float_config;
    Status ignored = CUDNN_STATUS_SUCCESS;
    if (!conv_type_config(p, &config, &ignored)) {
        clear_failure_reason();
        return Applicability::no("the data types form no cuDNN configuration");
    }
    // Double only where the transforms are 1-d (a 2-d filter of height or width 1, the 1-d filter gradient
    // below) or 3-d; half only with float compute (PSEUDO_HALF_CONFIG).
    const bool one_dimensional_filter = dims == 2 && (p.filter_extent(0) == 1 || p.filter_extent(1) == 1);
    const bool double_ok = tiled && (dims == 3 || one_dimensional_filter || filter_gradient);
    if (config != ConvTypeConfig::float_config && config != ConvTypeConfig::pseudo_half &&
        !(config == ConvTypeConfig::double_config && double_ok)) {
        return Applicability::no_format("needs FLOAT_CONFIG or PSEUDO_HALF_CONFIG%s, got %s",
                                        tiled ? " (DOUBLE_CONFIG where the FFT is 1-d or 3-d)" : "",
                                        conv_type_config_name(config));
    }
    if (p.filter_format != CUDNN_TENSOR_NCHW) return Applicability::no("needs the filter in CUDNN_TENSOR_NCHW (KCRS)");
    if (!spatially_packed(p.x)) {
        return Applicability::no_format("needs %s with packed spatial dims (%s-packed NCHW)", x_name(p),
                                        dims == 2 ? "HW" : "DHW");
    }
    if (!spatially_packed(p.y)) {
        return Applicability::no_format("needs %s with packed spatial dims (%s-packed NCHW)", y_name(p),
                                        dims == 2 ? "HW" : "DHW");
    }
    // FFT_TILING forward and backward data also take stride 2 where neither filter dim is 1 (cuDNN 8's table;
    // NVIDIA 9.19 runs them too, bench/results/2026-12-02-h200-conv-rules/).
    const bool stride_two_ok = tiled && dims == 2 && !filter_gradient && !one_dimensional_filter;
    for (int d = 0; d < dims; ++d) {
        if (p.stride[d] != 1 && !(stride_two_ok && p.stride[d] == 2)) {
            if (stride_two_ok)
                return Applicability::no_format("needs strides of 1 or 2, got %lld along dim %d",
                                                (long long)p.stride[d], d);
            return Applicability::no_format(
                "needs unit strides%s, got %lld along dim %d",
                tiled && dims == 2 && !filter_gradient ? " (a filter of height or width 1)" : "",
                (long long)p.stride[d], d);
        }
        if (p.dilation[d] != 1) {
            return Applicability::no_format("needs unit dilation, got %lld along dim %d", (long long)p.dilation[d], d);
        }
        if (p.pad[d] >= p.filter_extent(d)) {
            return Applicability::no_format(
                "needs padding smaller than the filter, got pad %lld for a filter of %lld along dim %d",
                (long long)p.pad[d], (long long)p.filter_extent(d), d);
        }
    }
    if (!tiled) {
        for (int d = 0; d < dims; ++d) {
            const int64_t padded = p.input_extent(d) + 2 * p.pad[d];
            if (padded > 256) {
                return Applicability::no_format(
                    "needs %s's extent + 2 * padding <= 256 along each dim, got %lld along dim %d", x_name(p),
                    (long long)padded, d);
            }
        }
        return Applicability::yes();
    }
    if (filter_gradient) {
        // cuDNN's backward-filter FFT_TILING is a 1-d transform: x and dy of height or width 1 (the same
        // dim), the other dim's tile (x's extent + 2 * padding) at most 256.
        int flat = -1;
        for (int d = 1; d >= 0; --d) {
            if (p.input_extent(d) == 1 && p.output_extent(d) == 1) flat = d;
        }
        if (flat < 0) return Applicability::no("needs xDesc and dyDesc of height 1 or of width 1 (a 1-d FFT)");
        const int other = 1 - flat;
        if (p.input_extent(other) + 2 * p.pad[other] > 256) {
            return Applicability::no_format("needs xDesc's extent + 2 * padding <= 256 along the long dim, got %lld",
                                            (long long)(p.input_extent(other) + 2 * p.pad[other]));
        }
        return Applicability::yes();
    }
    if (dims == 3) {
        for (int d = 0; d < 3; ++d) {
            if (p.filter_extent(d) > 16) {
                return Applicability::no_format("needs 3-d filters of 16 or less along each dim, got %lld along dim %d",
                                                (long long)p.filter_extent(d), d);
            }
        }
        return Applicability::yes();
    }
    if (one_dimensional_filter) {
        const int64_t longest = std::max(p.filter_extent(0), p.filter_extent(1));
        if (longest > 256)
            return Applicability::no_format("needs a 1-d filter of 256 or less, got %lld", (long long)longest);
        return Applicability::yes();
    }
    if (p.filter_extent(0) > 32 || p.filter_extent(1) > 32) {
        return Applicability::no_format("needs a filter of 32 or less along each dim, got %lldx%lld",
                                        (long long)p.filter_extent(0), (long long)p.filter_extent(1));
    }
    return Applicability::yes();
}

int64_t FftCorrelation::fft_points() const {
    int64_t points = 1;
    for (int d = 0; d < dims; ++d) points *= fft[d];
    return points;
}

int64_t FftCorrelation::tile_count() const {
    int64_t count = 1;
    for (int d = 0; d < dims; ++d) count *= tiles[d];
    return count;
}

FftCorrelation fft_correlation(const ConvProblem &p, FftKind kind) {
    FftCorrelation c;
    c.dims = p.spatial_dims;
    c.tile_the_filter = p.direction == ConvDirection::backward_filter;
    for (int d = 0; d < c.dims; ++d) {
        const int64_t x = p.input_extent(d), w = p.filter_extent(d), y = p.output_extent(d);
        const int64_t stride = p.stride[d];
        switch (p.direction) {
            case ConvDirection::forward:
                // Strided: the unit-stride correlation, of which every stride-th position is kept.
                c.src[d] = x, c.filter[d] = w, c.out[d] = (y - 1) * stride + 1, c.offset[d] = p.pad[d];
                c.out_stride[d] = stride;
                break;
            case ConvDirection::backward_data:
                // Strided: dy with stride - 1 zeros between its values, correlated at unit stride.
                c.src[d] = y, c.filter[d] = w, c.out[d] = x, c.offset[d] = w - 1 - p.pad[d];
                c.src_stride[d] = stride;
                break;
            case ConvDirection::backward_filter:
                c.src[d] = x, c.filter[d] = y, c.out[d] = w, c.offset[d] = p.pad[d];
                break;
        }
        // The operand every tile uses whole, and the one the tiles cut.
        const int64_t whole = c.tile_the_filter ? c.out[d] : c.filter[d];
        const int64_t cut = c.tiled_extent(d);
        if (kind == FftKind::whole) {
            c.fft[d] = power_of_two_at_least(c.out[d] + c.filter[d] - 1);
            c.step[d] = cut;
        } else {
            // A problem smaller than one tile takes the smaller transform that holds it whole.
            c.fft[d] = std::min(std::max<int64_t>(32, power_of_two_at_least(2 * whole - 1)),
                                power_of_two_at_least(c.out[d] + c.filter[d] - 1));
            c.step[d] = c.fft[d] - whole + 1;
        }
        c.tiles[d] = (cut + c.step[d] - 1) / c.step[d];
    }
    return c;
}

}  // namespace librednn
