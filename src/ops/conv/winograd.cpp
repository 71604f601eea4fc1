// The Winograd tiles' transform matrices and cuDNN 8's rules for its Winograd algorithms.
#include "ops/conv/winograd.hpp"

#include "core/status.hpp"
#include "ops/common/type_rules.hpp"
#include "ops/conv/validate.hpp"

namespace librednn {

namespace {

// Toom-Cook at the points 0, 1, -1 and infinity: G evaluates the filter polynomial there, A^T is the
// transposed evaluation of the output polynomial, B^T the transposed interpolation (the inverse of the
// full evaluation matrix). The halves sit in G, so that B^T and A^T are small integers.
constexpr double kBt4[4 * 4] = {
    1, 0,  -1, 0,  //
    0, 1,  1,  0,  //
    0, -1, 1,  0,  //
    0, -1, 0,  1,  //
};
constexpr double kG4x3[4 * 3] = {
    1,   0,    0,    //
    0.5, 0.5,  0.5,  //
    0.5, -0.5, 0.5,  //
    0,   0,    1,    //
};
constexpr double kAt2x4[2 * 4] = {
    1, 1, 1,  0,  //
    0, 1, -1, 1,  //
};

// The points 0, 1, -1, 2, -2 and infinity: each row of the interpolation scaled to integers, the scales'
// inverses moved into G (1/4, 1/6, 1/24: the only entries that are not exact in binary).
constexpr double kBt6[6 * 6] = {
    4, 0,  -5, 0,  1,  0,  //
    0, 4,  4,  -1, -1, 0,  //
    0, -4, 4,  1,  -1, 0,  //
    0, -2, -1, 2,  1,  0,  //
    0, 2,  -1, -2, 1,  0,  //
    0, 4,  0,  -5, 0,  1,  //
};
constexpr double kG6x3[6 * 3] = {
    1.0 / 4,  0,         0,        //
    1.0 / 6,  1.0 / 6,   1.0 / 6,  //
    1.0 / 6,  -1.0 / 6,  1.0 / 6,  //
    1.0 / 24, 1.0 / 12,  1.0 / 6,  //
    1.0 / 24, -1.0 / 12, 1.0 / 6,  //
    0,        0,         1,        //
};
constexpr double kAt4x6[4 * 6] = {
    1, 1, 1,  1, 1,  0,  //
    0, 1, -1, 2, -2, 0,  //
    0, 1, 1,  4, 4,  0,  //
    0, 1, -1, 8, -8, 1,  //
};
constexpr double kG6x5[6 * 5] = {
    1.0 / 4,  0,         0,       0,        0,        //
    1.0 / 6,  1.0 / 6,   1.0 / 6, 1.0 / 6,  1.0 / 6,  //
    1.0 / 6,  -1.0 / 6,  1.0 / 6, -1.0 / 6, 1.0 / 6,  //
    1.0 / 24, 1.0 / 12,  1.0 / 6, 1.0 / 3,  2.0 / 3,  //
    1.0 / 24, -1.0 / 12, 1.0 / 6, -1.0 / 3, 2.0 / 3,  //
    0,        0,         0,       0,        1,        //
};
constexpr double kAt2x6[2 * 6] = {
    1, 1, 1,  1, 1,  0,  //
    0, 1, -1, 2, -2, 1,  //
};

const WinogradTile kF2x3{2, 3, 4, kBt4, kG4x3, kAt2x4};
const WinogradTile kF4x3{4, 3, 6, kBt6, kG6x3, kAt4x6};
const WinogradTile kF2x5{2, 5, 6, kBt6, kG6x5, kAt2x6};

const char *algorithm_name(const ConvProblem &p, WinogradVariant variant) {
    if (p.direction == ConvDirection::backward_filter) return "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED";
    const bool forward = p.direction == ConvDirection::forward;
    if (variant == WinogradVariant::fused)
        return forward ? "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD" : "CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD";
    return forward ? "CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED"
                   : "CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED";
}

}  // namespace

const WinogradTile &winograd_tile(WinogradVariant variant, int r) {
    if (variant == WinogradVariant::fused) return kF2x3;
    return r == 5 ? kF2x5 : kF4x3;
}

Applicability winograd_applicable(const ConvProblem &p, WinogradVariant variant) {
    const char *name = algorithm_name(p, variant);
    if (variant == WinogradVariant::fused && p.direction == ConvDirection::backward_filter)
        return Applicability::no("cuDNN 8 does not implement CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD");
    if (p.spatial_dims != 2) {
        return Applicability::no_format("%s takes 2-d convolutions only (as cuDNN 8 documents it), got %d spatial dims",
                                        name, p.spatial_dims);
    }
    if (p.stride[0] != 1 || p.stride[1] != 1) {
        return Applicability::no_format("%s needs unit strides, got %lldx%lld", name,
                                        static_cast<long long>(p.stride[0]), static_cast<long long>(p.stride[1]));
    }
    if (p.dilation[0] != 1 || p.dilation[1] != 1) {
        return Applicability::no_format("%s needs unit dilation, got %lldx%lld", name,
                                        static_cast<long long>(p.dilation[0]), static_cast<long long>(p.dilation[1]));
    }
    const int64_t r = p.filter_extent(0), s = p.filter_extent(1);
    const bool square3 = r == 3 && s == 3, square5 = r == 5 && s == 5;
    if (variant == WinogradVariant::fused && !square3) {
        return Applicability::no_format("%s needs a 3x3 filter, got %lldx%lld", name, static_cast<long long>(r),
                                        static_cast<long long>(s));
    }
    if (variant == WinogradVariant::nonfused && !square3 && !square5) {
        return Applicability::no_format("%s needs a 3x3 or 5x5 filter, got %lldx%lld", name, static_cast<long long>(r),
                                        static_cast<long long>(s));
    }
    if (p.x.vector() > 1 || p.y.vector() > 1 || p.w.vector() > 1 || p.filter_format == CUDNN_TENSOR_NCHW_VECT_C)
        return Applicability::no_format("%s does not take NCHW_VECT_C tensors", name);
    // cuDNN 8 runs NHWC (KRSC) filters on its implicit GEMMs only; NVIDIA 9.19 refuses Winograd for them too
    // (bench/results/2026-12-02-h200-conv-rules/).
    if (p.filter_format != CUDNN_TENSOR_NCHW)
        return Applicability::no_format("%s needs the filter in CUDNN_TENSOR_NCHW (KCRS)", name);
    ConvTypeConfig config = ConvTypeConfig::float_config;
    Status status = CUDNN_STATUS_SUCCESS;
    if (!conv_type_config(p, &config, &status)) {
        clear_failure_reason();
        return Applicability::no_format("%s does not take these data types", name);
    }
    const bool float_like = config == ConvTypeConfig::float_config || config == ConvTypeConfig::pseudo_half;
    const bool true_half_ok = variant == WinogradVariant::nonfused && square3;
    if (!float_like && !(config == ConvTypeConfig::true_half && true_half_ok)) {
        return Applicability::no_format("%s takes %s, not %s", name,
                                        true_half_ok ? "TRUE_HALF_CONFIG, PSEUDO_HALF_CONFIG and FLOAT_CONFIG"
                                                     : "PSEUDO_HALF_CONFIG and FLOAT_CONFIG",
                                        conv_type_config_name(config));
    }
    return Applicability::yes();
}

}  // namespace librednn
