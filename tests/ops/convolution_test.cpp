// The convolutions (cudnnConvolutionForward, BackwardData, BackwardFilter, BiasActivationForward,
// BackwardBias) against the reference on random geometries, layouts, types and algorithms; the adjoint
// identities in double; the algorithm queries; and the rejections.
#include "reference/convolution.hpp"
#include "api/api_test_util.hpp"
#include "conv_descriptors.hpp"
#include "host/common/onednn.hpp"
#include "op_test_util.hpp"
#include "ops/common/dispatch.hpp"
#include "ops/common/element_access.hpp"
#include "ops/conv/algorithms.hpp"
#include "ops/conv/fft_geometry.hpp"
#include "ops/conv/problem.hpp"
#include "ops/conv/solvers.hpp"
#include "ops/conv/winograd.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <set>

namespace {

using namespace librednn;
using namespace librednn::test;

PackedLayout layout_of(cudnnTensorFormat_t format) {
    return format == CUDNN_TENSOR_NHWC          ? PackedLayout::nhwc
           : format == CUDNN_TENSOR_NCHW_VECT_C ? PackedLayout::nchw_vect_c
                                                : PackedLayout::nchw;
}

// --- random problems --------------------------------------------------------------------------------

struct TypeChoice {
    cudnnDataType_t x, w, y, compute;
};

const std::vector<TypeChoice> kFloatingTypes = {
    {CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE, CUDNN_DATA_DOUBLE},
    {CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_FLOAT},
    {CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF},
    {CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16, CUDNN_DATA_BFLOAT16, CUDNN_DATA_FLOAT},
};
const std::vector<TypeChoice> kInt8Types = {
    {CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_FLOAT, CUDNN_DATA_INT32},
    {CUDNN_DATA_UINT8, CUDNN_DATA_INT8, CUDNN_DATA_INT8, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8x4, CUDNN_DATA_INT8x4, CUDNN_DATA_FLOAT, CUDNN_DATA_INT32},
    {CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x32, CUDNN_DATA_INT8x32, CUDNN_DATA_INT32},
};

// The direction's WINOGRAD and WINOGRAD_NONFUSED enum values (-1: backward filter has no WINOGRAD).
int winograd_algorithm(ConvDirection direction, WinogradVariant variant) {
    const bool fused = variant == WinogradVariant::fused;
    switch (direction) {
        case ConvDirection::forward:
            return fused ? CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD : CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED;
        case ConvDirection::backward_data:
            return fused ? CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD : CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED;
        case ConvDirection::backward_filter: return fused ? -1 : CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED;
    }
    return -1;
}

// The Winograd variant an algorithm is, or false.
bool winograd_variant_of(const ConvProblem &p, WinogradVariant *variant) {
    for (WinogradVariant v : {WinogradVariant::fused, WinogradVariant::nonfused}) {
        if (p.algorithm >= 0 && p.algorithm == winograd_algorithm(p.direction, v)) {
            *variant = v;
            return true;
        }
    }
    return false;
}

// cuDNN 8's documented rule for its Winograd algorithms (restated here, not asked of the library): 2-d,
// unit strides and dilation, 3x3 filters (5x5 too for NONFUSED), a KCRS filter, no NCHW_VECT_C, PSEUDO_HALF
// or FLOAT (NONFUSED with 3x3 also TRUE_HALF); no backward-filter WINOGRAD.
bool winograd_documented(const ConvProblem &p, WinogradVariant variant) {
    if (winograd_algorithm(p.direction, variant) < 0 || p.spatial_dims != 2) return false;
    if (p.filter_format != CUDNN_TENSOR_NCHW) return false;
    for (int i = 0; i < 2; ++i)
        if (p.stride[i] != 1 || p.dilation[i] != 1) return false;
    const int64_t r = p.w.dims[2], s = p.w.dims[3];
    const bool nonfused = variant == WinogradVariant::nonfused;
    if (!(r == 3 && s == 3) && !(nonfused && r == 5 && s == 5)) return false;
    if (p.x.dtype == CUDNN_DATA_FLOAT) return p.compute_type == CUDNN_DATA_FLOAT;
    if (p.x.dtype != CUDNN_DATA_HALF) return false;
    return p.compute_type == CUDNN_DATA_FLOAT || (nonfused && r == 3);
}

// cuDNN 8's documented algorithms for the int8 configurations (restated here, not asked of the library):
// the two implicit GEMMs, INT8x32_CONFIG IMPLICIT_PRECOMP_GEMM only.
std::vector<int> int8_documented_algorithms(const ConvProblem &p) {
    if (p.x.dtype == CUDNN_DATA_INT8x32) return {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM};
    return {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM};
}

// The host's algorithms for `p`: the GEMM family always (the implicit GEMMs only for int8), Winograd where
// cuDNN documents it.
std::vector<int> host_algorithms(const ConvProblem &p) {
    if (p.compute_type == CUDNN_DATA_INT32) return int8_documented_algorithms(p);
    std::vector<int> algorithms;
    switch (p.direction) {
        case ConvDirection::forward:
            algorithms = {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM,
                          CUDNN_CONVOLUTION_FWD_ALGO_GEMM};
            break;
        case ConvDirection::backward_data:
            algorithms = {CUDNN_CONVOLUTION_BWD_DATA_ALGO_0, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1};
            break;
        case ConvDirection::backward_filter:
            algorithms = {CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1,
                          CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3};
            break;
    }
    for (WinogradVariant v : {WinogradVariant::fused, WinogradVariant::nonfused})
        if (winograd_documented(p, v)) algorithms.push_back(winograd_algorithm(p.direction, v));
    return algorithms;
}

// A random geometry of `spatial` dims whose output has at least one position along each.
ConvProblem random_problem(Random &rng, ConvDirection direction, bool int8 = false) {
    ConvProblem p;
    p.direction = direction;
    p.spatial_dims = static_cast<int>(rng.pick<int64_t>({1, 2, 2, 2, 3}));
    const TypeChoice types = int8 ? rng.pick(kInt8Types) : rng.pick(kFloatingTypes);
    const int lanes = vector_count(types.x);
    const bool depthwise = !int8 && rng.integer(0, 5) == 0;
    p.groups = depthwise ? rng.integer(2, 5) : (rng.integer(0, 3) == 0 ? rng.integer(2, 3) : 1);
    if (lanes > 1) p.groups = 1;
    const int64_t cg = depthwise ? 1 : lanes * rng.integer(1, lanes == 32 ? 1 : 4);
    const int64_t kg = depthwise ? rng.integer(1, 2) : (lanes > 1 ? lanes * rng.integer(1, 2) : rng.integer(1, 5));
    int64_t x_dims[kMaxDims] = {rng.integer(1, 3), cg * p.groups}, w_dims[kMaxDims] = {kg * p.groups, cg};
    for (int i = 0; i < p.spatial_dims; ++i) {
        const int64_t filter = rng.integer(1, 4);
        p.dilation[i] = rng.integer(0, 3) == 0 ? rng.integer(2, 3) : 1;
        p.stride[i] = rng.integer(0, 2) == 0 ? rng.integer(2, 5) : 1;  // sometimes larger than the filter
        p.pad[i] = rng.integer(0, 3) == 0 ? rng.integer(filter, filter + 2) : rng.integer(0, filter / 2);
        const int64_t extent = (filter - 1) * p.dilation[i] + 1;
        x_dims[i + 2] = std::max<int64_t>(1, rng.integer(std::max<int64_t>(1, extent - 2 * p.pad[i]), extent + 6));
        w_dims[i + 2] = filter;
    }
    p.mode = rng.coin() ? CUDNN_CROSS_CORRELATION : CUDNN_CONVOLUTION;
    p.compute_type = types.compute;
    p.math_type = rng.pick<cudnnMathType_t>({CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, CUDNN_FMA_MATH});
    const int nb_dims = p.spatial_dims + 2;
    int64_t y_dims[kMaxDims];
    p.filter_format = lanes > 1 ? CUDNN_TENSOR_NCHW_VECT_C
                      : int8    ? CUDNN_TENSOR_NHWC
                                : (rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC);
    p.w = packed_geometry(types.w, nb_dims, w_dims, layout_of(p.filter_format));
    conv_output_dims(p, x_dims, w_dims, y_dims);
    if (int8 && lanes == 1) {
        p.x = packed_geometry(types.x, nb_dims, x_dims, PackedLayout::nhwc);
        p.y = packed_geometry(types.y, nb_dims, y_dims, PackedLayout::nhwc);
    } else {
        const std::vector<int64_t> xd(x_dims, x_dims + nb_dims), yd(y_dims, y_dims + nb_dims);
        p.x = make_geometry(rng, types.x, xd, rng.pick(all_layout_kinds()));
        p.y = make_geometry(rng, types.y, yd,
                            vector_count(types.y) > 1 ? LayoutKind::nchw : rng.pick(all_layout_kinds()));
    }
    const bool in_double = types.x == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    p.algorithm = rng.pick(host_algorithms(p));
    return p;
}

// --- reference and bounds ---------------------------------------------------------------------------

reference::ConvolutionGeometry reference_geometry(const ConvProblem &p) {
    reference::ConvolutionGeometry g;
    for (int i = 0; i < p.spatial_dims; ++i) {
        g.padding.push_back(p.pad[i]);
        g.stride.push_back(p.stride[i]);
        g.dilation.push_back(p.dilation[i]);
    }
    g.groups = p.groups;
    g.mode = p.mode;
    return g;
}

// A double copy of a tensor's values (or their magnitudes) for the reference, packed in index order.
reference::HostTensor double_copy(const HostTensor &t, bool magnitudes = false) {
    const TensorGeometry &g = t.geometry;
    std::vector<int64_t> dims(g.dims, g.dims + g.nb_dims);
    reference::HostTensor copy(CUDNN_DATA_DOUBLE, dims);
    std::vector<double> values = element_values(t);
    if (magnitudes) {
        for (double &v : values) v = std::fabs(v);
    }
    copy.set_values(values);
    return copy;
}

// The unblended result of the problem's direction in double (or of the magnitudes: sum |terms|).
std::vector<double> reference_result(const ConvProblem &p, const HostTensor &x, const HostTensor &w,
                                     const HostTensor &y, bool magnitudes) {
    const TensorGeometry &out = p.result();
    reference::HostTensor result(CUDNN_DATA_DOUBLE, std::vector<int64_t>(out.dims, out.dims + out.nb_dims));
    const reference::ConvolutionGeometry g = reference_geometry(p);
    Status status = CUDNN_STATUS_SUCCESS;
    switch (p.direction) {
        case ConvDirection::forward:
            status = reference::convolution_forward(g, 1.0, double_copy(x, magnitudes), double_copy(w, magnitudes), 0.0,
                                                    result);
            break;
        case ConvDirection::backward_data:
            status = reference::convolution_backward_data(g, 1.0, double_copy(w, magnitudes),
                                                          double_copy(y, magnitudes), 0.0, result);
            break;
        case ConvDirection::backward_filter:
            status = reference::convolution_backward_filter(g, 1.0, double_copy(x, magnitudes),
                                                            double_copy(y, magnitudes), 0.0, result);
            break;
    }
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << last_failure_reason();
    return result.values();
}

// How many terms make one result element: the filter window (forward), the filters a position feeds
// (backward data, at most), every image and output position (backward filter).
double terms_per_element(const ConvProblem &p) {
    switch (p.direction) {
        case ConvDirection::forward: return static_cast<double>(p.channels_per_group() * p.filter_size());
        case ConvDirection::backward_data: return static_cast<double>(p.filters_per_group() * p.filter_size());
        case ConvDirection::backward_filter: return static_cast<double>(p.batch() * p.output_size());
    }
    return 1.0;
}

bool integer_config(const ConvProblem &p) { return p.compute_type == CUDNN_DATA_INT32; }

struct Inputs {
    HostTensor x, w, y;
};

// What the sum of one result element is, for its error bound: `length` roundings at most on the way of
// each term, and `weight[i]` the sum of the terms' magnitudes as the algorithm computes them.
struct SumModel {
    double length = 0.0;
    std::vector<double> weight;
    bool tf32 = false;  // float data may multiply on TF32 tensor cores
};

// Winograd's sums (ops/conv/winograd.hpp) go through the transform matrices. With |.| taken entrywise,
// a 1-d output i of a tile computes sum over (a, b, xi) of A^T[i][xi] G[xi][a] B^T[xi][b] g[a] d[b]:
// each term passes through the filter transform (two products by G, each entry of G rounded, each of r
// terms: 2 r + 2 roundings in 2-d), the input transform (2 alpha), the product (1), the sum over the
// channels (S) and the output transform (2 alpha), so it is perturbed by a factor (1 + theta), |theta| <=
// gamma_L with L = S + 4 alpha + 2 r + 3, and the output errs by at most gamma_L times the sum of the
// terms' magnitudes W = sum |A^T[i][xi]| |G[xi][a]| |B^T[xi][b]| |g[a]| |d[b]| (2-d: the product of the
// two dims' factors). We bound W above by taking, per tile, the largest |d| of its window for every d:
// W <= sum over (a, a') of |g[a][a']| max|d| kappa[i][a] kappa[j][a'], kappa[i][a] = sum over xi of
// |A^T[i][xi]| |G[xi][a]| sum_b |B^T[xi][b]| (about twice W for uniform data: cheap to compute for the
// long sums, and still far below a wrong transform's error). The filter gradient runs
// dy's tiles through A (2 m roundings), x's windows through B^T (2 alpha), sums over every image's tiles
// (S = N x tiles) and transforms back through G^T (2 alpha + 2): L = S + 4 alpha + 2 m + 3, with the
// same kappa (its terms are A^T[i][xi] G[xi][a] B^T[xi][b] dy[i] x[b]).
SumModel winograd_model(const ConvProblem &p, WinogradVariant variant, const Inputs &in) {
    const int64_t n_images = p.x.dims[0], channels = p.x.dims[1], height = p.x.dims[2], width = p.x.dims[3];
    const int64_t filters = p.w.dims[0], cg = p.channels_per_group(), kg = p.filters_per_group();
    const int64_t out_h = p.y.dims[2], out_w = p.y.dims[3];
    const int r = static_cast<int>(p.w.dims[2]);
    const WinogradTile &tile = winograd_tile(variant, r);
    const int m = tile.m, alpha = tile.alpha;
    std::vector<double> kappa(static_cast<size_t>(m * r), 0.0);
    for (int i = 0; i < m; ++i) {
        for (int a = 0; a < r; ++a) {
            for (int xi = 0; xi < alpha; ++xi) {
                double row = 0.0;
                for (int b = 0; b < alpha; ++b) row += std::fabs(tile.bt[xi * alpha + b]);
                kappa[i * r + a] += std::fabs(tile.at[i * alpha + xi]) * std::fabs(tile.g[xi * r + a]) * row;
            }
        }
    }
    const std::vector<double> x = element_values(in.x), w = element_values(in.w), y = element_values(in.y);
    const bool flip = p.mode == CUDNN_CONVOLUTION;
    auto filter = [&](int64_t k, int64_t c, int a, int b) { return std::fabs(w[((k * cg + c) * r + a) * r + b]); };
    // The largest |value| of each alpha x alpha window (at tile t * m - pad) of every plane of a tensor.
    auto window_max = [&](const std::vector<double> &v, int64_t planes, int64_t h, int64_t wd, int64_t tiles_h,
                          int64_t tiles_w, int64_t pad_h, int64_t pad_w) {
        std::vector<double> out(static_cast<size_t>(planes * tiles_h * tiles_w), 0.0);
        for (int64_t plane = 0; plane < planes; ++plane)
            for (int64_t ty = 0; ty < tiles_h; ++ty)
                for (int64_t tx = 0; tx < tiles_w; ++tx) {
                    double best = 0.0;
                    for (int b = 0; b < alpha; ++b)
                        for (int b2 = 0; b2 < alpha; ++b2) {
                            const int64_t row = ty * m - pad_h + b, column = tx * m - pad_w + b2;
                            if (row >= 0 && row < h && column >= 0 && column < wd)
                                best = std::max(best, std::fabs(v[(plane * h + row) * wd + column]));
                        }
                    out[(plane * tiles_h + ty) * tiles_w + tx] = best;
                }
        return out;
    };
    SumModel model;
    switch (p.direction) {
        case ConvDirection::forward:
        case ConvDirection::backward_data: {
            const bool forward = p.direction == ConvDirection::forward;
            // The correlation of x with w into y, or of dy with w rotated and transposed into dx.
            const int64_t in_per_group = forward ? cg : kg, out_per_group = forward ? kg : cg;
            const int64_t in_channels = forward ? channels : filters, in_h = forward ? height : out_h,
                          in_w = forward ? width : out_w;
            const int64_t o_h = forward ? out_h : height, o_w = forward ? out_w : width;
            const int64_t pad_h = forward ? p.pad[0] : r - 1 - p.pad[0], pad_w = forward ? p.pad[1] : r - 1 - p.pad[1];
            const int64_t tiles_h = winograd_tiles(o_h, m), tiles_w = winograd_tiles(o_w, m);
            const std::vector<double> maxima =
                window_max(forward ? x : y, n_images * in_channels, in_h, in_w, tiles_h, tiles_w, pad_h, pad_w);
            model.length = static_cast<double>(in_per_group + 4 * alpha + 2 * r + 3);
            model.weight.assign(static_cast<size_t>(n_images * out_per_group * p.groups * o_h * o_w), 0.0);
            size_t element = 0;
            for (int64_t n = 0; n < n_images; ++n)
                for (int64_t o = 0; o < out_per_group * p.groups; ++o)
                    for (int64_t row = 0; row < o_h; ++row)
                        for (int64_t column = 0; column < o_w; ++column) {
                            const int64_t g = o / out_per_group, i = row % m, j = column % m;
                            const int64_t tile_at = (row / m) * tiles_w + column / m;
                            double sum = 0.0;
                            for (int64_t c = 0; c < in_per_group; ++c) {
                                const int64_t channel = g * in_per_group + c;
                                const double top = maxima[static_cast<size_t>(
                                    (n * in_channels + channel) * tiles_h * tiles_w + tile_at)];
                                for (int a = 0; a < r; ++a)
                                    for (int b = 0; b < r; ++b) {
                                        // Forward reads w[o][c] as the solver does (mirrored for CONVOLUTION);
                                        // backward data reads it rotated once more.
                                        const bool mirrored = forward ? flip : !flip;
                                        const int fa = mirrored ? r - 1 - a : a, fb = mirrored ? r - 1 - b : b;
                                        const double f =
                                            forward ? filter(o, c, fa, fb) : filter(channel, o % cg, fa, fb);
                                        sum += f * top * kappa[i * r + a] * kappa[j * r + b];
                                    }
                            }
                            model.weight[element++] = sum;
                        }
            return model;
        }
        case ConvDirection::backward_filter: {
            const int64_t tiles_h = winograd_tiles(out_h, m), tiles_w = winograd_tiles(out_w, m);
            const std::vector<double> maxima =
                window_max(x, n_images * channels, height, width, tiles_h, tiles_w, p.pad[0], p.pad[1]);
            model.length = static_cast<double>(n_images * tiles_h * tiles_w + 4 * alpha + 2 * m + 3);
            model.weight.assign(static_cast<size_t>(filters * cg * r * r), 0.0);
            size_t element = 0;
            for (int64_t k = 0; k < filters; ++k)
                for (int64_t c = 0; c < cg; ++c)
                    for (int a0 = 0; a0 < r; ++a0)
                        for (int b0 = 0; b0 < r; ++b0) {
                            // The solver sums the mirrored taps for CONVOLUTION and stores them mirrored back.
                            const int a = flip ? r - 1 - a0 : a0, b = flip ? r - 1 - b0 : b0;
                            const int64_t channel = (k / kg) * cg + c;
                            double sum = 0.0;
                            for (int64_t n = 0; n < n_images; ++n)
                                for (int64_t row = 0; row < out_h; ++row)
                                    for (int64_t column = 0; column < out_w; ++column) {
                                        const double d =
                                            std::fabs(y[((n * filters + k) * out_h + row) * out_w + column]);
                                        const double top = maxima[static_cast<size_t>(
                                            ((n * channels + channel) * tiles_h + row / m) * tiles_w + column / m)];
                                        sum += d * top * kappa[(row % m) * r + a] * kappa[(column % m) * r + b];
                                    }
                            model.weight[element++] = sum;
                        }
            return model;
        }
    }
    return model;
}

// The compute error bound of every result element (docs/NUMERICS.md): a sum of n products in the
// accumulation type errs by sum_error(n, sum |x w|) plus one rounding per product; alpha, beta and the
// conversions add a few element-wise steps. int8 configurations sum exactly. Winograd algorithms (given
// the inputs) sum the terms of winograd_model() instead, never on TF32.
std::vector<ElementBound> conv_bounds(const ConvProblem &p, const std::vector<double> &value,
                                      const std::vector<double> &magnitude, const HostTensor &initial,
                                      const Inputs *inputs = nullptr) {
    SumModel model;
    WinogradVariant variant = WinogradVariant::fused;
    if (inputs != nullptr && winograd_variant_of(p, &variant)) {
        model = winograd_model(p, variant, *inputs);
    } else {
        model.length = terms_per_element(p);
        model.weight = magnitude;
        model.tf32 = p.x.dtype == CUDNN_DATA_FLOAT && p.math_type != CUDNN_FMA_MATH;
    }
    const double u = integer_config(p) ? 0.0 : accumulation_roundoff(p.x.dtype);
    // Float data under any math but FMA may multiply on TF32 tensor cores: each factor rounded to 10
    // fraction bits, each product off by up to 2^-10 of itself (docs/NUMERICS.md).
    const double product_error = model.tf32 ? 0x1p-10 : u;
    const double step =
        tolerance_for(p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
    const std::vector<double> old = element_values(initial);
    std::vector<ElementBound> bounds(value.size());
    for (size_t i = 0; i < value.size(); ++i) {
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[i];
        const double sum_error_bound = sum_error(model.length, model.weight[i], u) + product_error * model.weight[i];
        bounds[i].compute_error =
            std::fabs(p.alpha) * sum_error_bound + step * (std::fabs(p.alpha * value[i]) + std::fabs(before));
        bounds[i].exact = p.alpha * value[i] + before;
    }
    return bounds;
}

// The reference's rounded answer: `initial` with each element replaced by its exact value, stored.
HostTensor rounded_reference(const HostTensor &initial, const std::vector<ElementBound> &bounds) {
    HostTensor ref = initial;
    int64_t index[kMaxDims] = {};
    size_t element = 0;
    do {
        ref.set(index, bounds[element++].exact);
    } while (next_index(index, ref.geometry.dims, ref.geometry.nb_dims));
    return ref;
}

// --- running through the API ------------------------------------------------------------------------

Inputs random_inputs(Random &rng, const ConvProblem &p) {
    Inputs in{HostTensor(p.x), HostTensor(p.w), HostTensor(p.y)};
    const bool ints = integer_config(p);
    const double low_x = p.x.dtype == CUDNN_DATA_UINT8 ? 0.0 : (ints ? -20.0 : -2.0);
    fill_uniform(in.x, rng, low_x, ints ? 20.0 : 2.0);
    fill_uniform(in.w, rng, ints ? -20.0 : -2.0, ints ? 20.0 : 2.0);
    fill_uniform(in.y, rng, ints ? -20.0 : -2.0, ints ? 20.0 : 2.0);
    return in;
}

// The algorithms the backend under test runs for `p` (cudnnGet..._v7's SUCCESS entries).
std::vector<int> runnable_algorithms(Handle &handle, const ConvProblem &p) {
    TensorDescriptor x(p.x), y(p.y);
    FilterDescriptor w(p.w, p.filter_format);
    ConvDescriptor conv(p);
    std::vector<int> algorithms;
    int returned = 0;
    switch (p.direction) {
        case ConvDirection::forward: {
            cudnnConvolutionFwdAlgoPerf_t perf[CUDNN_CONVOLUTION_FWD_ALGO_COUNT];
            EXPECT_EQ(cudnnGetConvolutionForwardAlgorithm_v7(handle, x, w, conv, y, CUDNN_CONVOLUTION_FWD_ALGO_COUNT,
                                                             &returned, perf),
                      CUDNN_STATUS_SUCCESS);
            for (int i = 0; i < returned; ++i)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) algorithms.push_back(perf[i].algo);
            break;
        }
        case ConvDirection::backward_data: {
            cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
            EXPECT_EQ(cudnnGetConvolutionBackwardDataAlgorithm_v7(
                          handle, w, y, conv, x, CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, perf),
                      CUDNN_STATUS_SUCCESS);
            for (int i = 0; i < returned; ++i)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) algorithms.push_back(perf[i].algo);
            break;
        }
        case ConvDirection::backward_filter: {
            cudnnConvolutionBwdFilterAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT];
            EXPECT_EQ(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
                          handle, x, y, conv, w, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT, &returned, perf),
                      CUDNN_STATUS_SUCCESS);
            for (int i = 0; i < returned; ++i)
                if (perf[i].status == CUDNN_STATUS_SUCCESS) algorithms.push_back(perf[i].algo);
            break;
        }
    }
    return algorithms;
}

size_t workspace_size(Handle &handle, const ConvProblem &p, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
                      cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t y) {
    size_t bytes = 0;
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    switch (p.direction) {
        case ConvDirection::forward:
            status = cudnnGetConvolutionForwardWorkspaceSize(
                handle, x, w, conv, y, static_cast<cudnnConvolutionFwdAlgo_t>(p.algorithm), &bytes);
            break;
        case ConvDirection::backward_data:
            status = cudnnGetConvolutionBackwardDataWorkspaceSize(
                handle, w, y, conv, x, static_cast<cudnnConvolutionBwdDataAlgo_t>(p.algorithm), &bytes);
            break;
        case ConvDirection::backward_filter:
            status = cudnnGetConvolutionBackwardFilterWorkspaceSize(
                handle, x, y, conv, w, static_cast<cudnnConvolutionBwdFilterAlgo_t>(p.algorithm), &bytes);
            break;
    }
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS);
    return bytes;
}

// Runs the problem's direction through the API on copies of `in`, the result starting as `initial`.
std::vector<uint8_t> run_api(Handle &handle, const ConvProblem &p, const Inputs &in,
                             const std::vector<uint8_t> &initial, cudnnStatus_t *status_out = nullptr) {
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    FilterDescriptor w_desc(p.w, p.filter_format);
    ConvDescriptor conv(p);
    const size_t bytes = workspace_size(handle, p, x_desc, w_desc, conv, y_desc);
    DeviceBuffer workspace(std::vector<uint8_t>(bytes, 0xa5));
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar alpha(p.alpha, in_double), beta(p.beta, in_double);
    const bool fwd = p.direction == ConvDirection::forward, bwd_data = p.direction == ConvDirection::backward_data;
    DeviceBuffer x(fwd || !bwd_data ? in.x.bytes : initial),
        w(p.direction == ConvDirection::backward_filter ? initial : in.w.bytes), y(fwd ? initial : in.y.bytes);
    cudnnStatus_t status = CUDNN_STATUS_SUCCESS;
    switch (p.direction) {
        case ConvDirection::forward:
            status = cudnnConvolutionForward(handle, alpha.get(), x_desc, x.get(), w_desc, w.get(), conv,
                                             static_cast<cudnnConvolutionFwdAlgo_t>(p.algorithm), workspace.get(),
                                             bytes, beta.get(), y_desc, y.get());
            break;
        case ConvDirection::backward_data:
            status = cudnnConvolutionBackwardData(handle, alpha.get(), w_desc, w.get(), y_desc, y.get(), conv,
                                                  static_cast<cudnnConvolutionBwdDataAlgo_t>(p.algorithm),
                                                  workspace.get(), bytes, beta.get(), x_desc, x.get());
            break;
        case ConvDirection::backward_filter:
            status = cudnnConvolutionBackwardFilter(handle, alpha.get(), x_desc, x.get(), y_desc, y.get(), conv,
                                                    static_cast<cudnnConvolutionBwdFilterAlgo_t>(p.algorithm),
                                                    workspace.get(), bytes, beta.get(), w_desc, w.get());
            break;
    }
    if (status_out) *status_out = status;
    EXPECT_EQ(status, CUDNN_STATUS_SUCCESS) << to_problem_string(p).to_string();
    return fwd ? y.download() : bwd_data ? x.download() : w.download();
}

bool is_fft_algorithm(ConvDirection direction, int algorithm) {
    switch (direction) {
        case ConvDirection::forward:
            return algorithm == CUDNN_CONVOLUTION_FWD_ALGO_FFT || algorithm == CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING;
        case ConvDirection::backward_data:
            return algorithm == CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT ||
                   algorithm == CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING;
        case ConvDirection::backward_filter: break;
    }
    return algorithm == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT ||
           algorithm == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING;
}

// Runs `problem` with one of the algorithms the backend runs for it (the host's all do), against the
// reference; false when the backend runs none.
bool check_against_reference(Random &rng, const ConvProblem &problem) {
    Handle handle;
    std::vector<int> algorithms = runnable_algorithms(handle, problem);
    // The FFT algorithms round differently (fft_bounds): their own tests below run them.
    algorithms.erase(std::remove_if(algorithms.begin(), algorithms.end(),
                                    [&](int algorithm) { return is_fft_algorithm(problem.direction, algorithm); }),
                     algorithms.end());
    if (test_backend() == TestBackend::host) {
        EXPECT_EQ(algorithms.size(), host_algorithms(problem).size()) << to_problem_string(problem).to_string();
    }
    if (algorithms.empty()) return false;
    ConvProblem p = problem;
    if (std::find(algorithms.begin(), algorithms.end(), p.algorithm) == algorithms.end())
        p.algorithm = rng.pick(algorithms);
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    Inputs in = random_inputs(rng, p);
    HostTensor initial(p.result());
    if (p.beta == 0.0) {
        poison(initial);
    } else {
        initial = p.direction == ConvDirection::forward         ? in.y
                  : p.direction == ConvDirection::backward_data ? in.x
                                                                : in.w;
    }
    HostTensor result(p.result());
    auto run = [&](const std::vector<uint8_t> &start) { return run_api(handle, p, in, start); };
    result.bytes = p.beta == 0.0 ? run_poisoned(initial, run) : run(initial.bytes);
    const std::vector<double> value = reference_result(p, in.x, in.w, in.y, false);
    const std::vector<double> magnitude = reference_result(p, in.x, in.w, in.y, true);
    const std::vector<ElementBound> bounds = conv_bounds(p, value, magnitude, initial, &in);
    EXPECT_TRUE(matches_reference(result, rounded_reference(initial, bounds), bounds, text));
    return true;
}

// Runs `trials` random problems; skips the test when the backend ran none of them.
template <class Make>
void check_trials(Random &rng, int trials, Make &&make) {
    int ran = 0;
    for (int trial = 0; trial < trials; ++trial) ran += check_against_reference(rng, make()) ? 1 : 0;
    if (ran == 0) GTEST_SKIP() << "the " << test_backend_name() << " backend runs none of these convolutions";
}

// --- tests against the reference ----------------------------------------------------------------------

TEST(Convolution, ForwardMatchesReferenceOnRandomGeometriesLayoutsTypesAndAlgorithms) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 120, [&] { return random_problem(rng, ConvDirection::forward); });
}

TEST(Convolution, BackwardDataMatchesReferenceOnRandomGeometriesLayoutsTypesAndAlgorithms) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 120, [&] { return random_problem(rng, ConvDirection::backward_data); });
}

TEST(Convolution, BackwardFilterMatchesReferenceOnRandomGeometriesLayoutsTypesAndAlgorithms) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 120, [&] { return random_problem(rng, ConvDirection::backward_filter); });
}

// The algorithm of each direction the host runs on oneDNN where it loads (docs/HOST_ONEDNN.md).
int onednn_algorithm(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward: return CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
        case ConvDirection::backward_data: return CUDNN_CONVOLUTION_BWD_DATA_ALGO_1;
        case ConvDirection::backward_filter: return CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1;
    }
    return -1;
}

// What oneDNN takes: float, bfloat16 or half, both modes, any geometry, strides, groups, alpha/beta,
// run with oneDNN's algorithm (LibreDNN's own solver of that algorithm under LIBREDNN_ONEDNN=0). Where
// oneDNN loads, most of them must run on it: a plan that oneDNN rejects falls back silently.
TEST(Convolution, OnednnAlgorithmsMatchReferenceOnFloatBfloat16AndHalf) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const bool loaded = test_backend() == TestBackend::host && host::onednn::api(nullptr) != nullptr;
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        int trials = 0, on_onednn = 0;
        check_trials(rng, 40, [&] {
            ConvProblem p = random_problem(rng, direction);
            const cudnnDataType_t type =
                rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_BFLOAT16, CUDNN_DATA_HALF});
            p.x.dtype = p.w.dtype = p.y.dtype = type;
            p.compute_type = type == CUDNN_DATA_HALF && rng.coin() ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
            p.alpha = Scalar(p.alpha, false).value();
            p.beta = Scalar(p.beta, false).value();
            p.algorithm = onednn_algorithm(direction);
            const ConvSolver *chosen = nullptr;
            ++trials;
            if (loaded &&
                select_solver_for_algorithm(conv_solvers(direction), Backend::host, p, p.algorithm,
                                            "oneDNN's algorithm", "convolution", &chosen) == CUDNN_STATUS_SUCCESS)
                on_onednn += std::strstr(chosen->name(), "onednn") != nullptr ? 1 : 0;
            return p;
        });
        if (loaded) {
            EXPECT_GE(on_onednn, trials * 3 / 4) << conv_direction_name(direction) << ": only " << on_onednn << " of "
                                                 << trials << " problems ran on oneDNN";
        }
    }
}

ConvProblem small_float_problem(ConvDirection direction, cudnnDataType_t type) {
    ConvProblem p;
    p.direction = direction;
    const int64_t x_dims[] = {1, 8, 10, 10}, w_dims[] = {16, 8, 3, 3};
    int64_t y_dims[4];
    p.pad[0] = p.pad[1] = 1;
    p.stride[0] = p.stride[1] = p.dilation[0] = p.dilation[1] = 1;
    p.compute_type = type;
    conv_output_dims(p, x_dims, w_dims, y_dims);
    p.x = packed_geometry(type, 4, x_dims, PackedLayout::nchw);
    p.w = packed_geometry(type, 4, w_dims, PackedLayout::nchw);
    p.y = packed_geometry(type, 4, y_dims, PackedLayout::nchw);
    return p;
}

// Where oneDNN loads, the host runs float convolutions on it; where it does not (or LIBREDNN_ONEDNN=0),
// and for what it lacks (double), LibreDNN's own solvers run and the oneDNN solver says why.
TEST(ConvolutionOnednn, HostDispatchPicksOnednnWhereItLoadsAndSaysWhyNotElsewhere) {
    if (test_backend() != TestBackend::host) GTEST_SKIP() << "a host dispatch test";
    std::string why;
    const bool loaded = host::onednn::api(&why) != nullptr;
    const char *setting = std::getenv("LIBREDNN_ONEDNN");
    if (setting != nullptr && std::strcmp(setting, "0") == 0) {
        EXPECT_FALSE(loaded);
        EXPECT_EQ(why, "switched off by LIBREDNN_ONEDNN=0");
    }
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        const ConvSolver *chosen = nullptr;
        ASSERT_EQ(select_solver(conv_solvers(direction), Backend::host,
                                small_float_problem(direction, CUDNN_DATA_FLOAT), "convolution", &chosen),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(std::strstr(chosen->name(), "onednn") != nullptr, loaded) << chosen->name() << "; " << why;
        if (loaded) {
            EXPECT_EQ(chosen->algorithm(), onednn_algorithm(direction)) << chosen->name();
        }
        ASSERT_EQ(select_solver(conv_solvers(direction), Backend::host,
                                small_float_problem(direction, CUDNN_DATA_DOUBLE), "convolution", &chosen),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(std::strstr(chosen->name(), "onednn"), nullptr) << chosen->name();
        bool explained = false;
        for (const auto &ranked :
             rank_solvers(conv_solvers(direction), Backend::host, small_float_problem(direction, CUDNN_DATA_DOUBLE))) {
            if (std::strstr(ranked.solver->name(), "onednn") == nullptr) continue;
            EXPECT_FALSE(ranked.answer.ok());
            EXPECT_NE(ranked.answer.reason().find(loaded ? "oneDNN has no DOUBLE_CONFIG" : why), std::string::npos)
                << ranked.answer.reason();
            explained = true;
        }
        EXPECT_TRUE(explained) << "no oneDNN solver registered for " << conv_direction_name(direction);
    }
}

TEST(Convolution, Int8ForwardMatchesReferenceExactly) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_trials(rng, 40, [&] { return random_problem(rng, ConvDirection::forward, true); });
}

// INT8x4, UINT8x4 and INT8x32 in NCHW_VECT_C (any vector strides, any geometry of 1 to 3 spatial dims):
// every backend runs each under exactly the algorithms cuDNN 8 documents for it, each matching the
// reference exactly (int32 sums; alpha, beta, rounding and saturation as the reference's).
TEST(Convolution, VectorisedInt8ForwardRunsUnderTheDocumentedAlgorithmsAndMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 30; ++trial) {
        ConvProblem p = random_problem(rng, ConvDirection::forward, true);
        while (p.x.vector() == 1) p = random_problem(rng, ConvDirection::forward, true);
        const std::string text = to_problem_string(p).to_string();
        std::vector<int> runnable = runnable_algorithms(handle, p), documented = int8_documented_algorithms(p);
        std::sort(runnable.begin(), runnable.end());
        std::sort(documented.begin(), documented.end());
        EXPECT_EQ(runnable, documented) << text;
        for (int algorithm : documented) {
            p.algorithm = algorithm;
            EXPECT_TRUE(check_against_reference(rng, p)) << text;
        }
    }
}

TEST(Convolution, LongSumsMatchReference) {
    // Sums of thousands of terms: 64 channels x 3 x 3 taps forward, 8 images x 24 x 24 positions for the
    // filter gradient.
    LIBREDNN_SEEDED_RANDOM(rng);
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        ConvProblem p = random_problem(rng, direction);
        const int64_t x_dims[] = {8, 64, 24, 24}, w_dims[] = {16, 64, 3, 3};
        int64_t y_dims[4];
        p.spatial_dims = 2;
        p.groups = 1;
        p.pad[0] = p.pad[1] = 1;
        p.stride[0] = p.stride[1] = p.dilation[0] = p.dilation[1] = 1;
        conv_output_dims(p, x_dims, w_dims, y_dims);
        const cudnnDataType_t type = rng.pick(kFloatingTypes).x;
        p.compute_type = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
        p.x = packed_geometry(type, 4, x_dims, PackedLayout::nhwc);
        p.w = packed_geometry(type, 4, w_dims, PackedLayout::nhwc);
        p.filter_format = CUDNN_TENSOR_NHWC;
        p.y = packed_geometry(type, 4, y_dims, PackedLayout::nhwc);
        check_against_reference(rng, p);
    }
}

// --- Winograd ---------------------------------------------------------------------------------------

// A random problem cuDNN documents `variant` for: 2-d, unit strides and dilation, 3x3 (or 5x5 for
// NONFUSED) filters, 1 to 3 images, groups (depthwise too), any padding (beyond half the filter too),
// odd and one-pixel extents, both modes, a KCRS filter and every layout of x and y, PSEUDO_HALF, FLOAT and
// (NONFUSED 3x3) TRUE_HALF, random alpha and beta; the algorithm is the variant's.
ConvProblem random_winograd_problem(Random &rng, ConvDirection direction, WinogradVariant variant) {
    ConvProblem p;
    p.direction = direction;
    p.spatial_dims = 2;
    const bool nonfused = variant == WinogradVariant::nonfused;
    const int64_t r = nonfused && rng.integer(0, 2) == 0 ? 5 : 3;
    const bool depthwise = rng.integer(0, 4) == 0;
    p.groups = depthwise ? rng.integer(2, 4) : (rng.integer(0, 3) == 0 ? rng.integer(2, 3) : 1);
    const int64_t cg = depthwise ? 1 : rng.integer(1, 4), kg = depthwise ? rng.integer(1, 2) : rng.integer(1, 5);
    int64_t x_dims[4] = {rng.integer(1, 3), cg * p.groups}, w_dims[4] = {kg * p.groups, cg, r, r};
    for (int i = 0; i < 2; ++i) {
        p.stride[i] = p.dilation[i] = 1;
        p.pad[i] = rng.integer(0, 3) == 0 ? rng.integer(r / 2 + 1, r + 1) : rng.integer(0, r / 2);
        // From the smallest extent with one output (often a single pixel) to a few tiles.
        x_dims[i + 2] = std::max<int64_t>(1, r - 2 * p.pad[i]) + (rng.integer(0, 3) == 0 ? 0 : rng.integer(0, 11));
    }
    std::vector<TypeChoice> types = {{CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT},
                                     {CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_FLOAT}};
    if (nonfused && r == 3) types.push_back({CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF, CUDNN_DATA_HALF});
    const TypeChoice type = rng.pick(types);
    p.mode = rng.coin() ? CUDNN_CROSS_CORRELATION : CUDNN_CONVOLUTION;
    p.compute_type = type.compute;
    p.math_type = rng.pick<cudnnMathType_t>({CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, CUDNN_FMA_MATH});
    p.filter_format = CUDNN_TENSOR_NCHW;
    p.w = packed_geometry(type.w, 4, w_dims, layout_of(p.filter_format));
    int64_t y_dims[4];
    conv_output_dims(p, x_dims, w_dims, y_dims);
    p.x = make_geometry(rng, type.x, std::vector<int64_t>(x_dims, x_dims + 4), rng.pick(all_layout_kinds()));
    p.y = make_geometry(rng, type.y, std::vector<int64_t>(y_dims, y_dims + 4), rng.pick(all_layout_kinds()));
    p.alpha = Scalar(random_alpha(rng), false).value();
    p.beta = Scalar(random_beta(rng), false).value();
    p.algorithm = winograd_algorithm(direction, variant);
    return p;
}

// Runs random Winograd problems of the direction with the variant's algorithm, which the backend must
// list as runnable, against the reference within Winograd's bound (winograd_model).
void check_winograd(Random &rng, ConvDirection direction, WinogradVariant variant, int trials) {
    for (int trial = 0; trial < trials; ++trial) {
        const ConvProblem p = random_winograd_problem(rng, direction, variant);
        ASSERT_TRUE(winograd_documented(p, variant)) << to_problem_string(p).to_string();
        Handle handle;
        const std::vector<int> algorithms = runnable_algorithms(handle, p);
        ASSERT_NE(std::find(algorithms.begin(), algorithms.end(), p.algorithm), algorithms.end())
            << "the " << test_backend_name() << " backend does not run " << to_problem_string(p).to_string();
        check_against_reference(rng, p);
    }
}

TEST(ConvolutionWinograd, ForwardMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_winograd(rng, ConvDirection::forward, WinogradVariant::fused, 25);
}

TEST(ConvolutionWinograd, ForwardNonfusedMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_winograd(rng, ConvDirection::forward, WinogradVariant::nonfused, 25);
}

TEST(ConvolutionWinograd, BackwardDataMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_winograd(rng, ConvDirection::backward_data, WinogradVariant::fused, 25);
}

TEST(ConvolutionWinograd, BackwardDataNonfusedMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_winograd(rng, ConvDirection::backward_data, WinogradVariant::nonfused, 25);
}

TEST(ConvolutionWinograd, BackwardFilterNonfusedMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    check_winograd(rng, ConvDirection::backward_filter, WinogradVariant::nonfused, 25);
}

// Problems cuDNN does not document Winograd for: every Winograd algorithm of the direction answers
// NOT_SUPPORTED (the run, the workspace query and the ranking alike), and the others still run.
TEST(ConvolutionWinograd, UndocumentedGeometriesAndTypesAreNotSupported) {
    LIBREDNN_SEEDED_RANDOM(rng);
    struct Change {
        const char *what;
        void (*apply)(ConvProblem &);
    };
    const Change changes[] = {
        {"stride 2", [](ConvProblem &p) { p.stride[1] = 2; }},
        {"dilation 2", [](ConvProblem &p) { p.dilation[0] = 2; }},
        {"4x4 filter", [](ConvProblem &p) { p.w.dims[2] = p.w.dims[3] = 4; }},
        {"3x5 filter", [](ConvProblem &p) { p.w.dims[3] = 5; }},
        {"5x5 filter", [](ConvProblem &p) { p.w.dims[2] = p.w.dims[3] = 5; }},
        {"double", [](ConvProblem &p) { p.x.dtype = p.w.dtype = p.y.dtype = p.compute_type = CUDNN_DATA_DOUBLE; }},
        {"bfloat16", [](ConvProblem &p) { p.x.dtype = p.w.dtype = p.y.dtype = CUDNN_DATA_BFLOAT16; }},
        {"true half 5x5",
         [](ConvProblem &p) {
             p.x.dtype = p.w.dtype = p.y.dtype = p.compute_type = CUDNN_DATA_HALF;
             p.w.dims[2] = p.w.dims[3] = 5;
         }},
        {"true half 3x3", [](ConvProblem &p) { p.x.dtype = p.w.dtype = p.y.dtype = p.compute_type = CUDNN_DATA_HALF; }},
        {"NHWC filter", [](ConvProblem &p) { p.filter_format = CUDNN_TENSOR_NHWC; }},
    };
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        for (const Change &change : changes) {
            ConvProblem p;
            p.direction = direction;
            p.spatial_dims = 2;
            p.pad[0] = p.pad[1] = 1;
            p.stride[0] = p.stride[1] = p.dilation[0] = p.dilation[1] = 1;
            int64_t x_dims[4] = {2, 4, 7, 6}, w_dims[4] = {3, 4, 3, 3};
            p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw);
            p.w = packed_geometry(CUDNN_DATA_FLOAT, 4, w_dims, PackedLayout::nchw);
            change.apply(p);
            for (int i = 0; i < 4; ++i) w_dims[i] = p.w.dims[i];
            int64_t y_dims[4];
            conv_output_dims(p, x_dims, w_dims, y_dims);
            p.x = packed_geometry(p.x.dtype, 4, x_dims, PackedLayout::nchw);
            p.w = packed_geometry(p.w.dtype, 4, w_dims, layout_of(p.filter_format));
            p.y = packed_geometry(p.x.dtype, 4, y_dims, PackedLayout::nchw);
            const std::string text = std::string(change.what) + ": " + to_problem_string(p).to_string();
            SCOPED_TRACE(text);
            Handle handle;
            const std::vector<int> algorithms = runnable_algorithms(handle, p);
            EXPECT_FALSE(algorithms.empty());
            for (WinogradVariant variant : {WinogradVariant::fused, WinogradVariant::nonfused}) {
                const int algorithm = winograd_algorithm(direction, variant);
                if (algorithm < 0) continue;
                const bool documented = winograd_documented(p, variant);
                EXPECT_EQ(std::count(algorithms.begin(), algorithms.end(), algorithm), documented ? 1 : 0)
                    << "algorithm " << algorithm;
                if (documented) continue;
                TensorDescriptor x(p.x), y(p.y);
                FilterDescriptor w(p.w, p.filter_format);
                ConvDescriptor conv(p);
                const char *name = conv_algorithm_name(direction, algorithm);
                size_t bytes = 0;
                std::vector<uint8_t> memory(1 << 16, 0);  // never read: the algorithm is rejected first
                void *b = memory.data();
                const float one = 1.0f, zero = 0.0f;
                const double one_d = 1.0, zero_d = 0.0;
                const void *alpha = p.x.dtype == CUDNN_DATA_DOUBLE ? static_cast<const void *>(&one_d) : &one;
                const void *beta = p.x.dtype == CUDNN_DATA_DOUBLE ? static_cast<const void *>(&zero_d) : &zero;
                switch (direction) {
                    case ConvDirection::forward: {
                        const auto algo = static_cast<cudnnConvolutionFwdAlgo_t>(algorithm);
                        EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                                        cudnnGetConvolutionForwardWorkspaceSize(handle, x, w, conv, y, algo, &bytes),
                                        name);
                        EXPECT_REJECTED(
                            CUDNN_STATUS_NOT_SUPPORTED,
                            cudnnConvolutionForward(handle, alpha, x, b, w, b, conv, algo, b, 0, beta, y, b), name);
                        break;
                    }
                    case ConvDirection::backward_data: {
                        const auto algo = static_cast<cudnnConvolutionBwdDataAlgo_t>(algorithm);
                        EXPECT_REJECTED(
                            CUDNN_STATUS_NOT_SUPPORTED,
                            cudnnGetConvolutionBackwardDataWorkspaceSize(handle, w, y, conv, x, algo, &bytes), name);
                        EXPECT_REJECTED(
                            CUDNN_STATUS_NOT_SUPPORTED,
                            cudnnConvolutionBackwardData(handle, alpha, w, b, y, b, conv, algo, b, 0, beta, x, b),
                            name);
                        break;
                    }
                    case ConvDirection::backward_filter: {
                        const auto algo = static_cast<cudnnConvolutionBwdFilterAlgo_t>(algorithm);
                        EXPECT_REJECTED(
                            CUDNN_STATUS_NOT_SUPPORTED,
                            cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, x, y, conv, w, algo, &bytes), name);
                        EXPECT_REJECTED(
                            CUDNN_STATUS_NOT_SUPPORTED,
                            cudnnConvolutionBackwardFilter(handle, alpha, x, b, y, b, conv, algo, b, 0, beta, w, b),
                            name);
                        break;
                    }
                }
            }
        }
    }
}

// The workspace query gives what a run needs: one byte less is BAD_PARAM (every Winograd solver of the
// host needs some; the CUDA fused ones may need none), NULL with a size too.
TEST(ConvolutionWinograd, TooLittleWorkspaceIsRejected) {
    LIBREDNN_SEEDED_RANDOM(rng);
    const std::pair<ConvDirection, WinogradVariant> cases[] = {
        {ConvDirection::forward, WinogradVariant::fused},
        {ConvDirection::forward, WinogradVariant::nonfused},
        {ConvDirection::backward_data, WinogradVariant::fused},
        {ConvDirection::backward_data, WinogradVariant::nonfused},
        {ConvDirection::backward_filter, WinogradVariant::nonfused},
    };
    for (const auto &[direction, variant] : cases) {
        const ConvProblem p = random_winograd_problem(rng, direction, variant);
        SCOPED_TRACE(to_problem_string(p).to_string());
        Handle handle;
        TensorDescriptor x(p.x), y(p.y);
        FilterDescriptor w(p.w, p.filter_format);
        ConvDescriptor conv(p);
        const size_t bytes = workspace_size(handle, p, x, w, conv, y);
        if (test_backend() == TestBackend::host) {
            EXPECT_GT(bytes, 0u);
        }
        if (bytes == 0) continue;
        Inputs in = random_inputs(rng, p);
        DeviceBuffer xb(in.x.bytes), wb(in.w.bytes), yb(in.y.bytes), ws(std::vector<uint8_t>(bytes, 0));
        const float one = 1.0f, zero = 0.0f;
        const int a = p.algorithm;
        for (void *workspace : {ws.get(), static_cast<void *>(nullptr)}) {
            const size_t given = workspace == nullptr ? bytes : bytes - 1;
            const char *expected = workspace == nullptr ? "workSpace is NULL" : "workSpaceSizeInBytes";
            switch (direction) {
                case ConvDirection::forward:
                    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                                    cudnnConvolutionForward(handle, &one, x, xb.get(), w, wb.get(), conv,
                                                            static_cast<cudnnConvolutionFwdAlgo_t>(a), workspace, given,
                                                            &zero, y, yb.get()),
                                    expected);
                    break;
                case ConvDirection::backward_data:
                    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                                    cudnnConvolutionBackwardData(handle, &one, w, wb.get(), y, yb.get(), conv,
                                                                 static_cast<cudnnConvolutionBwdDataAlgo_t>(a),
                                                                 workspace, given, &zero, x, xb.get()),
                                    expected);
                    break;
                case ConvDirection::backward_filter:
                    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                                    cudnnConvolutionBackwardFilter(handle, &one, x, xb.get(), y, yb.get(), conv,
                                                                   static_cast<cudnnConvolutionBwdFilterAlgo_t>(a),
                                                                   workspace, given, &zero, w, wb.get()),
                                    expected);
                    break;
            }
        }
    }
}

// The backward-filter WINOGRAD algorithm is not implemented, as in cuDNN: NOT_SUPPORTED with a reason,
// even where NONFUSED runs.
TEST(ConvolutionWinograd, BackwardFilterWinogradIsNotImplemented) {
    LIBREDNN_SEEDED_RANDOM(rng);
    ConvProblem p = random_winograd_problem(rng, ConvDirection::backward_filter, WinogradVariant::nonfused);
    Handle handle;
    TensorDescriptor x(p.x), y(p.y);
    FilterDescriptor w(p.w, p.filter_format);
    ConvDescriptor conv(p);
    size_t bytes = 0;
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED,
                    cudnnGetConvolutionBackwardFilterWorkspaceSize(handle, x, y, conv, w,
                                                                   CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD, &bytes),
                    "CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD");
}

// <dy, conv(x, w)> = <bwd_data(w, dy), x> = <bwd_filter(x, dy), w>: the backward passes are the adjoints
// of the forward, checked in double through the API.
TEST(Convolution, BackwardPassesAreTheAdjointsOfTheForwardInDouble) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 30; ++trial) {
        ConvProblem p = random_problem(rng, ConvDirection::forward);
        for (TensorGeometry *g : {&p.x, &p.w, &p.y}) g->dtype = CUDNN_DATA_DOUBLE;
        p.x = make_geometry(rng, CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.x.dims, p.x.dims + p.x.nb_dims),
                            LayoutKind::nchw);
        p.y = make_geometry(rng, CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.y.dims, p.y.dims + p.y.nb_dims),
                            LayoutKind::nchw);
        p.w = packed_geometry(CUDNN_DATA_DOUBLE, p.w.nb_dims, p.w.dims, layout_of(p.filter_format));
        p.compute_type = CUDNN_DATA_DOUBLE;
        p.alpha = 1.0;
        p.beta = 0.0;
        const std::string text = to_problem_string(p).to_string();
        SCOPED_TRACE(text);
        Inputs in = random_inputs(rng, p);
        Handle handle;
        ConvProblem fwd = p, bwd_data = p, bwd_filter = p;
        bwd_data.direction = ConvDirection::backward_data;
        bwd_filter.direction = ConvDirection::backward_filter;
        bool runnable = true;
        for (ConvProblem *q : {&fwd, &bwd_data, &bwd_filter}) {
            std::vector<int> algorithms = runnable_algorithms(handle, *q);
            // The bound below counts roundings of direct sums: not the FFT's or Winograd's transforms.
            algorithms.erase(std::remove_if(algorithms.begin(), algorithms.end(),
                                            [&](int algorithm) {
                                                ConvProblem with = *q;
                                                with.algorithm = algorithm;
                                                WinogradVariant variant;
                                                return is_fft_algorithm(q->direction, algorithm) ||
                                                       winograd_variant_of(with, &variant);
                                            }),
                             algorithms.end());
            if (algorithms.empty()) runnable = false;
            if (!algorithms.empty()) q->algorithm = rng.pick(algorithms);
        }
        if (!runnable) continue;
        HostTensor y(p.y), dx(p.x), dw(p.w);
        y.bytes = run_api(handle, fwd, in, in.y.bytes);
        dx.bytes = run_api(handle, bwd_data, in, in.x.bytes);
        dw.bytes = run_api(handle, bwd_filter, in, in.w.bytes);
        auto inner = [](const HostTensor &a, const HostTensor &b) {
            const std::vector<double> va = element_values(a), vb = element_values(b);
            return std::inner_product(va.begin(), va.end(), vb.begin(), 0.0);
        };
        const double forward = inner(in.y, y), data = inner(dx, in.x), filter = inner(dw, in.w);
        // Every side sums the same products x w dy, each in at most n roundings of double: the sides
        // agree within 2 n u sum |x w dy| (M: dy against the forward of the magnitudes).
        const std::vector<double> window = reference_result(fwd, in.x, in.w, in.y, true);
        const std::vector<double> dy = element_values(in.y);
        double magnitude = 0.0;
        for (size_t i = 0; i < dy.size(); ++i) magnitude += std::fabs(dy[i]) * window[i];
        const double n = static_cast<double>(p.batch() * p.output_channels() * p.output_size() *
                                                 p.channels_per_group() * p.filter_size() +
                                             dy.size() + p.x.element_count());
        const double allowed = 2.0 * n * 0x1p-53 * magnitude;
        EXPECT_NEAR(forward, data, allowed);
        EXPECT_NEAR(forward, filter, allowed);
    }
}

// --- folded backward data ---------------------------------------------------------------------------

// The descriptors cudnnGetFoldedConvBackwardDataDescriptors fills, created empty and destroyed together.
struct FoldedDescriptors {
    cudnnFilterDescriptor_t filter = nullptr;
    cudnnTensorDescriptor_t diff = nullptr, grad = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    cudnnTensorTransformDescriptor_t filter_fold = nullptr, diff_pad = nullptr, grad_fold = nullptr,
                                     grad_unfold = nullptr;

    FoldedDescriptors() {
        EXPECT_EQ(cudnnCreateFilterDescriptor(&filter), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateTensorDescriptor(&diff), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateTensorDescriptor(&grad), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
        for (cudnnTensorTransformDescriptor_t *t : {&filter_fold, &diff_pad, &grad_fold, &grad_unfold})
            EXPECT_EQ(cudnnCreateTensorTransformDescriptor(t), CUDNN_STATUS_SUCCESS);
    }
    ~FoldedDescriptors() {
        cudnnDestroyFilterDescriptor(filter);
        cudnnDestroyTensorDescriptor(diff);
        cudnnDestroyTensorDescriptor(grad);
        cudnnDestroyConvolutionDescriptor(conv);
        for (cudnnTensorTransformDescriptor_t t : {filter_fold, diff_pad, grad_fold, grad_unfold})
            cudnnDestroyTensorTransformDescriptor(t);
    }
    FoldedDescriptors(const FoldedDescriptors &) = delete;
    FoldedDescriptors &operator=(const FoldedDescriptors &) = delete;

    cudnnStatus_t get(Handle &handle, cudnnFilterDescriptor_t w, cudnnTensorDescriptor_t dy,
                      cudnnConvolutionDescriptor_t convolution, cudnnTensorDescriptor_t dx,
                      cudnnTensorFormat_t format) {
        return cudnnGetFoldedConvBackwardDataDescriptors(handle, w, dy, convolution, dx, format, filter, diff, conv,
                                                         grad, filter_fold, diff_pad, grad_fold, grad_unfold);
    }
};

// A random 2-d backward-data problem that folds: cross-correlation without dilation or groups, strides
// 1 to 3 (mostly above 1), any padding, layouts and floating types.
ConvProblem random_foldable_problem(Random &rng) {
    ConvProblem p = random_problem(rng, ConvDirection::backward_data);
    p.spatial_dims = 2;
    p.groups = 1;
    p.mode = CUDNN_CROSS_CORRELATION;
    int64_t x_dims[kMaxDims] = {rng.integer(1, 3), rng.integer(1, 5)},
            w_dims[kMaxDims] = {rng.integer(1, 5), x_dims[1]};
    for (int i = 0; i < 2; ++i) {
        const int64_t filter = rng.integer(1, 5);
        p.dilation[i] = 1;
        p.stride[i] = rng.integer(0, 3) == 0 ? 1 : rng.integer(2, 3);
        p.pad[i] = rng.integer(0, filter);
        x_dims[i + 2] = std::max<int64_t>(1, filter - 2 * p.pad[i]) + rng.integer(0, 7);
        w_dims[i + 2] = filter;
    }
    int64_t y_dims[kMaxDims];
    conv_output_dims(p, x_dims, w_dims, y_dims);
    const cudnnDataType_t type = p.x.dtype;
    p.w = packed_geometry(type, 4, w_dims, layout_of(p.filter_format));
    p.x = make_geometry(rng, type, std::vector<int64_t>(x_dims, x_dims + 4), rng.pick(all_layout_kinds()));
    p.y = make_geometry(rng, type, std::vector<int64_t>(y_dims, y_dims + 4), rng.pick(all_layout_kinds()));
    return p;
}

// A backward-data algorithm the backend runs for these descriptors, and its workspace.
int runnable_backward_data_algorithm(Handle &handle, cudnnFilterDescriptor_t w, cudnnTensorDescriptor_t dy,
                                     cudnnConvolutionDescriptor_t conv, cudnnTensorDescriptor_t dx, size_t *bytes) {
    cudnnConvolutionBwdDataAlgoPerf_t perf[CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT];
    int returned = 0;
    EXPECT_EQ(cudnnGetConvolutionBackwardDataAlgorithm_v7(handle, w, dy, conv, dx,
                                                          CUDNN_CONVOLUTION_BWD_DATA_ALGO_COUNT, &returned, perf),
              CUDNN_STATUS_SUCCESS);
    for (int i = 0; i < returned; ++i) {
        if (perf[i].status != CUDNN_STATUS_SUCCESS) continue;
        // The folded bound is a direct sum's: the FFT and Winograd algorithms round otherwise (their own tests).
        if (is_fft_algorithm(ConvDirection::backward_data, perf[i].algo) ||
            perf[i].algo == CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD ||
            perf[i].algo == CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED)
            continue;
        EXPECT_EQ(cudnnGetConvolutionBackwardDataWorkspaceSize(handle, w, dy, conv, dx, perf[i].algo, bytes),
                  CUDNN_STATUS_SUCCESS);
        return perf[i].algo;
    }
    return -1;
}

std::vector<int> dims_of(cudnnTensorDescriptor_t desc) {
    cudnnDataType_t type;
    int nb_dims = 0, dims[kMaxDims], strides[kMaxDims];
    EXPECT_EQ(cudnnGetTensorNdDescriptor(desc, kMaxDims, &type, &nb_dims, dims, strides), CUDNN_STATUS_SUCCESS);
    return std::vector<int>(dims, dims + nb_dims);
}

// dx through the folded problem, as cuDNN's samples run it: fold the filter, pad dy where its padded
// descriptor is larger, backward data on the folded tensors (alpha 1, beta 0), then unfold into dx with
// the problem's alpha and beta. dx starts as `initial`.
std::vector<uint8_t> run_folded(Handle &handle, const ConvProblem &p, cudnnTensorFormat_t format, const Inputs &in,
                                const std::vector<uint8_t> &initial) {
    TensorDescriptor dx_desc(p.x), dy_desc(p.y);
    FilterDescriptor w_desc(p.w, p.filter_format);
    ConvDescriptor conv(p);
    FoldedDescriptors folded;
    EXPECT_EQ(folded.get(handle, w_desc, dy_desc, conv, dx_desc, format), CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar one(1.0, in_double), zero(0.0, in_double), alpha(p.alpha, in_double), beta(p.beta, in_double);

    size_t filter_bytes = 0, padded_bytes = 0, grad_bytes = 0;
    EXPECT_EQ(cudnnGetFilterSizeInBytes(folded.filter, &filter_bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetTensorSizeInBytes(folded.diff, &padded_bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnGetTensorSizeInBytes(folded.grad, &grad_bytes), CUDNN_STATUS_SUCCESS);
    DeviceBuffer w(in.w.bytes), dy(in.y.bytes), dx(initial);
    DeviceBuffer folded_w(std::vector<uint8_t>(filter_bytes, 0xff)), folded_dx(std::vector<uint8_t>(grad_bytes, 0xff));
    EXPECT_EQ(cudnnTransformFilter(handle, folded.filter_fold, one.get(), w_desc, w.get(), zero.get(), folded.filter,
                                   folded_w.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    DeviceBuffer padded_dy(std::vector<uint8_t>(padded_bytes, 0xff));
    void *diff = dy.get();
    // (cuDNN's sample compares the byte sizes, which a dy with gaps between its elements can match by
    // chance: the dims say whether dy was padded.)
    if (dims_of(folded.diff) != dims_of(dy_desc)) {
        EXPECT_EQ(cudnnTransformTensorEx(handle, folded.diff_pad, one.get(), dy_desc, dy.get(), zero.get(), folded.diff,
                                         padded_dy.get()),
                  CUDNN_STATUS_SUCCESS)
            << last_failure_reason();
        diff = padded_dy.get();
    }
    size_t workspace_bytes = 0;
    const int algorithm = runnable_backward_data_algorithm(handle, folded.filter, folded.diff, folded.conv, folded.grad,
                                                           &workspace_bytes);
    EXPECT_GE(algorithm, 0) << "no backward-data algorithm runs the folded problem";
    DeviceBuffer workspace(std::vector<uint8_t>(workspace_bytes, 0xa5));
    EXPECT_EQ(cudnnConvolutionBackwardData(handle, one.get(), folded.filter, folded_w.get(), folded.diff, diff,
                                           folded.conv, static_cast<cudnnConvolutionBwdDataAlgo_t>(algorithm),
                                           workspace.get(), workspace_bytes, zero.get(), folded.grad, folded_dx.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    EXPECT_EQ(cudnnTransformTensorEx(handle, folded.grad_unfold, alpha.get(), folded.grad, folded_dx.get(), beta.get(),
                                     dx_desc, dx.get()),
              CUDNN_STATUS_SUCCESS)
        << last_failure_reason();
    return dx.download();
}

TEST(ConvolutionFolded, FoldBackwardDataUnfoldMatchesTheDirectBackwardData) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (int trial = 0; trial < 60; ++trial) {
        ConvProblem p = random_foldable_problem(rng);
        const cudnnTensorFormat_t format = rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
        std::vector<int> algorithms = runnable_algorithms(handle, p);
        // conv_bounds is no FFT's bound (fft_bounds; their own tests): since FFT_TILING takes stride 2 (7e03959)
        // it runs these strided problems, and seed 16184600799204517174 drew it (CI, 1e-6 off a 2e-7 bound).
        algorithms.erase(std::remove_if(algorithms.begin(), algorithms.end(),
                                        [&](int algorithm) { return is_fft_algorithm(p.direction, algorithm); }),
                         algorithms.end());
        if (algorithms.empty()) continue;
        p.algorithm = rng.pick(algorithms);
        const std::string text =
            to_problem_string(p).to_string() + " transformFormat " + (format == CUDNN_TENSOR_NCHW ? "NCHW" : "NHWC");
        SCOPED_TRACE(text);
        Inputs in = random_inputs(rng, p);
        HostTensor initial(p.x);
        if (p.beta == 0.0) {
            poison(initial);
        } else {
            initial = in.x;
        }
        HostTensor direct(p.x), folded(p.x);
        auto run_direct = [&](const std::vector<uint8_t> &start) { return run_api(handle, p, in, start); };
        auto run_fold = [&](const std::vector<uint8_t> &start) { return run_folded(handle, p, format, in, start); };
        direct.bytes = p.beta == 0.0 ? run_poisoned(initial, run_direct) : run_direct(initial.bytes);
        folded.bytes = p.beta == 0.0 ? run_poisoned(initial, run_fold) : run_fold(initial.bytes);
        const std::vector<double> value = reference_result(p, in.x, in.w, in.y, false);
        const std::vector<double> magnitude = reference_result(p, in.x, in.w, in.y, true);
        const std::vector<ElementBound> bounds = conv_bounds(p, value, magnitude, initial, &in);
        EXPECT_TRUE(matches_reference(direct, rounded_reference(initial, bounds), bounds, "direct " + text));
        // The folded sums have the same products (and zeros from the padded taps; the folded problem runs
        // the first-ranked algorithm, not Winograd); the unscaled sum is stored once in dx's type before
        // the unfold blends it: one more rounding of |alpha| sum |terms|.
        std::vector<ElementBound> folded_bounds = conv_bounds(p, value, magnitude, initial);
        const double storage = tolerance_for(p.x.dtype).unit_roundoff;
        for (size_t i = 0; i < folded_bounds.size(); ++i)
            folded_bounds[i].compute_error += storage * std::fabs(p.alpha) * magnitude[i];
        EXPECT_TRUE(
            matches_reference(folded, rounded_reference(initial, folded_bounds), folded_bounds, "folded " + text));
    }
}

// The folded geometry of two hand-worked problems (ops/conv/fold.hpp): 7x7 dx, 3x3 filter, stride 2,
// pad 1 (dy 4x4: 2x2 folded taps, 5x5 folded dx, no dy padding, 1 cropped before and 2 after); and 5x5
// dx, 2x2 filter, stride 2 (dy 2x2, whose last dx row no window reaches: dy padded to 3x3).
TEST(ConvolutionFolded, DescriptorsOfHandWorkedProblems) {
    Handle handle;
    struct Case {
        int h, r, pad, stride;
        int folded_taps, folded_grad, padded_diff, crop_after;
    };
    for (const Case &c : {Case{7, 3, 1, 2, 2, 5, 4, 2}, Case{5, 2, 0, 2, 1, 3, 3, 1}}) {
        ConvProblem p;
        p.direction = ConvDirection::backward_data;
        p.spatial_dims = 2;
        p.pad[0] = p.pad[1] = c.pad;
        p.stride[0] = p.stride[1] = c.stride;
        p.dilation[0] = p.dilation[1] = 1;
        const int64_t x_dims[] = {2, 3, c.h, c.h}, w_dims[] = {4, 3, c.r, c.r};
        int64_t y_dims[4];
        conv_output_dims(p, x_dims, w_dims, y_dims);
        p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw);
        p.w = packed_geometry(CUDNN_DATA_FLOAT, 4, w_dims, PackedLayout::nchw);
        p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
        TensorDescriptor dx(p.x), dy(p.y);
        FilterDescriptor w(p.w, CUDNN_TENSOR_NCHW);
        ConvDescriptor conv(p);
        FoldedDescriptors folded;
        ASSERT_EQ(folded.get(handle, w, dy, conv, dx, CUDNN_TENSOR_NHWC), CUDNN_STATUS_SUCCESS);
        cudnnDataType_t type;
        cudnnTensorFormat_t format;
        int k = 0, channels = 0, r = 0, s = 0;
        ASSERT_EQ(cudnnGetFilter4dDescriptor(folded.filter, &type, &format, &k, &channels, &r, &s),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(type, CUDNN_DATA_FLOAT);
        EXPECT_EQ(format, CUDNN_TENSOR_NHWC);
        EXPECT_EQ(std::vector<int>({k, channels, r, s}),
                  std::vector<int>({4, 3 * c.stride * c.stride, c.folded_taps, c.folded_taps}));
        int n = 0, ch = 0, h = 0, wd = 0, ns = 0, cs = 0, hs = 0, ws = 0;
        ASSERT_EQ(cudnnGetTensor4dDescriptor(folded.grad, &type, &n, &ch, &h, &wd, &ns, &cs, &hs, &ws),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(std::vector<int>({n, ch, h, wd}),
                  std::vector<int>({2, 3 * c.stride * c.stride, c.folded_grad, c.folded_grad}));
        EXPECT_EQ(cs, 1) << "packed NHWC";
        ASSERT_EQ(cudnnGetTensor4dDescriptor(folded.diff, &type, &n, &ch, &h, &wd, &ns, &cs, &hs, &ws),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(std::vector<int>({n, ch, h, wd}), std::vector<int>({2, 4, c.padded_diff, c.padded_diff}));
        int pads[2], strides[2], dilations[2], array_length = 0;
        cudnnConvolutionMode_t mode;
        cudnnDataType_t compute;
        ASSERT_EQ(
            cudnnGetConvolutionNdDescriptor(folded.conv, 2, &array_length, pads, strides, dilations, &mode, &compute),
            CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(std::vector<int>({pads[0], pads[1], strides[0], strides[1], dilations[0], dilations[1]}),
                  std::vector<int>({0, 0, 1, 1, 1, 1}));
        EXPECT_EQ(mode, CUDNN_CROSS_CORRELATION);
        cudnnTensorFormat_t dest_format;
        int32_t before[4], after[4];
        uint32_t fold[2];
        cudnnFoldingDirection_t direction;
        ASSERT_EQ(
            cudnnGetTensorTransformDescriptor(folded.grad_unfold, 4, &dest_format, before, after, fold, &direction),
            CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(direction, CUDNN_TRANSFORM_UNFOLD);
        EXPECT_EQ(std::vector<uint32_t>({fold[0], fold[1]}),
                  std::vector<uint32_t>({static_cast<uint32_t>(c.stride), static_cast<uint32_t>(c.stride)}));
        EXPECT_EQ(std::vector<int32_t>({before[2], before[3], after[2], after[3]}),
                  std::vector<int32_t>({-c.pad, -c.pad, -c.crop_after, -c.crop_after}));
        // The grad fold is the unfold's inverse: folding dx gives the folded dx's dims.
        cudnnTensorDescriptor_t refolded = nullptr;
        ASSERT_EQ(cudnnCreateTensorDescriptor(&refolded), CUDNN_STATUS_SUCCESS);
        size_t bytes = 0;
        ASSERT_EQ(cudnnInitTransformDest(folded.grad_fold, dx, refolded, &bytes), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudnnGetTensor4dDescriptor(refolded, &type, &n, &ch, &h, &wd, &ns, &cs, &hs, &ws),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(std::vector<int>({n, ch, h, wd}),
                  std::vector<int>({2, 3 * c.stride * c.stride, c.folded_grad, c.folded_grad}));
        cudnnDestroyTensorDescriptor(refolded);
    }
}

TEST(ConvolutionFolded, UnitStridesGiveTheProblemItself) {
    // Nothing to fold: groups, dilation and CUDNN_CONVOLUTION stay, and dy needs no padding, so that its
    // padded descriptor is its own.
    Handle handle;
    ConvProblem p;
    p.direction = ConvDirection::backward_data;
    p.spatial_dims = 2;
    p.pad[0] = 1;
    p.pad[1] = 2;
    p.stride[0] = p.stride[1] = 1;
    p.dilation[0] = 2;
    p.dilation[1] = 1;
    p.groups = 2;
    p.mode = CUDNN_CONVOLUTION;
    const int64_t x_dims[] = {1, 4, 6, 6}, w_dims[] = {6, 2, 3, 3};
    int64_t y_dims[4];
    conv_output_dims(p, x_dims, w_dims, y_dims);
    p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nhwc);
    p.w = packed_geometry(CUDNN_DATA_FLOAT, 4, w_dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nhwc);
    TensorDescriptor dx(p.x), dy(p.y);
    FilterDescriptor w(p.w, CUDNN_TENSOR_NCHW);
    ConvDescriptor conv(p);
    FoldedDescriptors folded;
    ASSERT_EQ(folded.get(handle, w, dy, conv, dx, CUDNN_TENSOR_NCHW), CUDNN_STATUS_SUCCESS);
    int pads[2], strides[2], dilations[2], array_length = 0, groups = 0;
    cudnnConvolutionMode_t mode;
    cudnnDataType_t compute;
    ASSERT_EQ(cudnnGetConvolutionNdDescriptor(folded.conv, 2, &array_length, pads, strides, dilations, &mode, &compute),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetConvolutionGroupCount(folded.conv, &groups), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(std::vector<int>({pads[0], pads[1], strides[0], strides[1], dilations[0], dilations[1], groups}),
              std::vector<int>({1, 2, 1, 1, 2, 1, 2}));
    EXPECT_EQ(mode, CUDNN_CONVOLUTION);
    cudnnDataType_t type;
    int nb_dims = 0, dims[4], tensor_strides[4], own_dims[4], own_strides[4];
    ASSERT_EQ(cudnnGetTensorNdDescriptor(folded.diff, 4, &type, &nb_dims, dims, tensor_strides), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnGetTensorNdDescriptor(dy, 4, &type, &nb_dims, own_dims, own_strides), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(std::vector<int>(dims, dims + 4), std::vector<int>(own_dims, own_dims + 4));
    EXPECT_EQ(std::vector<int>(tensor_strides, tensor_strides + 4), std::vector<int>(own_strides, own_strides + 4));
}

TEST(ConvolutionFolded, RejectsWhatDoesNotFold) {
    Handle handle;
    ConvProblem p;
    p.direction = ConvDirection::backward_data;
    p.spatial_dims = 2;
    p.pad[0] = p.pad[1] = 1;
    p.stride[0] = p.stride[1] = 2;
    p.dilation[0] = p.dilation[1] = 1;
    const int64_t x_dims[] = {1, 4, 8, 8}, w_dims[] = {4, 4, 3, 3}, grouped_w_dims[] = {4, 2, 3, 3};
    int64_t y_dims[4];
    conv_output_dims(p, x_dims, w_dims, y_dims);
    p.x = packed_geometry(CUDNN_DATA_FLOAT, 4, x_dims, PackedLayout::nchw);
    p.w = packed_geometry(CUDNN_DATA_FLOAT, 4, w_dims, PackedLayout::nchw);
    p.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
    TensorDescriptor dx(p.x), dy(p.y);
    FilterDescriptor w(p.w, CUDNN_TENSOR_NCHW);
    FoldedDescriptors folded;

    ConvProblem flipped = p;
    flipped.mode = CUDNN_CONVOLUTION;
    ConvDescriptor flipped_conv(flipped);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, folded.get(handle, w, dy, flipped_conv, dx, CUDNN_TENSOR_NCHW),
                    "CUDNN_CONVOLUTION");
    ConvProblem grouped = p;
    grouped.groups = 2;
    ConvDescriptor grouped_conv(grouped);
    FilterDescriptor grouped_w(packed_geometry(CUDNN_DATA_FLOAT, 4, grouped_w_dims, PackedLayout::nchw),
                               CUDNN_TENSOR_NCHW);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, folded.get(handle, grouped_w, dy, grouped_conv, dx, CUDNN_TENSOR_NCHW),
                    "groups");
    ConvProblem dilated = p;
    dilated.dilation[1] = 2;
    int64_t dilated_y[4];
    conv_output_dims(dilated, x_dims, w_dims, dilated_y);
    TensorDescriptor dilated_dy(packed_geometry(CUDNN_DATA_FLOAT, 4, dilated_y, PackedLayout::nchw));
    ConvDescriptor dilated_conv(dilated);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, folded.get(handle, w, dilated_dy, dilated_conv, dx, CUDNN_TENSOR_NCHW),
                    "dilation");

    ConvDescriptor conv(p);
    EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, folded.get(handle, w, dy, conv, dx, CUDNN_TENSOR_NCHW_VECT_C),
                    "CUDNN_TENSOR_NCHW_VECT_C");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, folded.get(handle, w, dy, conv, dx, static_cast<cudnnTensorFormat_t>(9)),
                    "transformFormat");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, folded.get(handle, w, dx, conv, dx, CUDNN_TENSOR_NCHW), "dyDesc");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnGetFoldedConvBackwardDataDescriptors(handle, w, dy, conv, dx, CUDNN_TENSOR_NCHW, folded.filter,
                                                              folded.diff, folded.conv, folded.grad, folded.filter_fold,
                                                              folded.diff_pad, nullptr, folded.grad_unfold),
                    "gradFoldTransDesc");
    // 3-d convolutions (5-d tensors) do not fold.
    ConvProblem three_d = p;
    three_d.spatial_dims = 3;
    three_d.pad[2] = 1;
    three_d.stride[2] = 2;
    three_d.dilation[2] = 1;
    const int64_t x5[] = {1, 4, 8, 8, 8}, w5[] = {4, 4, 3, 3, 3};
    int64_t y5[5];
    conv_output_dims(three_d, x5, w5, y5);
    TensorDescriptor dx5(packed_geometry(CUDNN_DATA_FLOAT, 5, x5, PackedLayout::nchw)),
        dy5(packed_geometry(CUDNN_DATA_FLOAT, 5, y5, PackedLayout::nchw));
    FilterDescriptor w5_desc(packed_geometry(CUDNN_DATA_FLOAT, 5, w5, PackedLayout::nchw), CUDNN_TENSOR_NCHW);
    ConvDescriptor conv5(three_d);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, folded.get(handle, w5_desc, dy5, conv5, dx5, CUDNN_TENSOR_NCHW), "4-d");
    // A rejection leaves the outputs as they were: the filter is still unset.
    cudnnDataType_t type;
    cudnnTensorFormat_t format;
    int k = 0, c = 0, r = 0, s = 0;
    EXPECT_EQ(cudnnGetFilter4dDescriptor(folded.filter, &type, &format, &k, &c, &r, &s), CUDNN_STATUS_BAD_PARAM);
}

// --- the FFT algorithms -------------------------------------------------------------------------------

int fft_algorithm(ConvDirection direction, FftKind kind) {
    const bool tiled = kind == FftKind::tiled;
    switch (direction) {
        case ConvDirection::forward:
            return tiled ? CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING : CUDNN_CONVOLUTION_FWD_ALGO_FFT;
        case ConvDirection::backward_data:
            return tiled ? CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING : CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT;
        case ConvDirection::backward_filter: break;
    }
    return tiled ? CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING : CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT;
}

// Packed NCHW tensors, KCRS filter, unit dilation, padding below the filter: the problems cuDNN's FFT
// algorithms take. `filter` and `x` give each spatial dim's extents; `strides` the strides (unit where empty).
ConvProblem fft_problem(Random &rng, ConvDirection direction, FftKind kind, cudnnDataType_t type,
                        const std::vector<int64_t> &filter, const std::vector<int64_t> &x, int64_t groups,
                        const std::vector<int64_t> &strides = {}) {
    ConvProblem p;
    p.direction = direction;
    p.spatial_dims = static_cast<int>(filter.size());
    p.groups = groups;
    const int64_t cg = rng.integer(1, 3), kg = rng.integer(1, 3);
    int64_t x_dims[kMaxDims] = {rng.integer(1, 2), cg * groups}, w_dims[kMaxDims] = {kg * groups, cg};
    for (int i = 0; i < p.spatial_dims; ++i) {
        p.stride[i] = strides.empty() ? 1 : strides[static_cast<size_t>(i)];
        p.dilation[i] = 1;
        p.pad[i] = rng.integer(0, filter[static_cast<size_t>(i)] - 1);
        w_dims[i + 2] = filter[static_cast<size_t>(i)];
        x_dims[i + 2] = std::max(x[static_cast<size_t>(i)], filter[static_cast<size_t>(i)] - 2 * p.pad[i]);
    }
    p.mode = rng.coin() ? CUDNN_CROSS_CORRELATION : CUDNN_CONVOLUTION;
    p.compute_type = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    p.math_type = rng.pick<cudnnMathType_t>({CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH, CUDNN_FMA_MATH});
    const int nb_dims = p.spatial_dims + 2;
    int64_t y_dims[kMaxDims];
    conv_output_dims(p, x_dims, w_dims, y_dims);
    p.filter_format = CUDNN_TENSOR_NCHW;
    p.w = packed_geometry(type, nb_dims, w_dims, PackedLayout::nchw);
    p.x = packed_geometry(type, nb_dims, x_dims, PackedLayout::nchw);
    p.y = packed_geometry(type, nb_dims, y_dims, PackedLayout::nchw);
    const bool in_double = type == CUDNN_DATA_DOUBLE;
    p.alpha = Scalar(random_alpha(rng), in_double).value();
    p.beta = Scalar(random_beta(rng), in_double).value();
    p.algorithm = fft_algorithm(direction, kind);
    (void)kind;
    return p;
}

// A random problem of the kind cuDNN's FFT (whole) or FFT_TILING (tiled) takes in `direction`: FFT 2-d
// with x + 2 pad <= 256; FFT_TILING 2-d with filters up to 32 (up to 20 here) or 1-d filters, images
// larger than one 32-point tile, 3-d (forward, backward data: filters up to 16, 4 here), strides of 1 or 2
// where neither filter dim is 1 (forward, backward data); backward filter FFT_TILING 1-d (x and dy of height
// 1). Float or half data (PSEUDO_HALF), double where cuDNN allows it.
ConvProblem random_fft_problem(Random &rng, ConvDirection direction, FftKind kind) {
    const bool tiled = kind == FftKind::tiled;
    std::vector<cudnnDataType_t> types = {CUDNN_DATA_FLOAT, CUDNN_DATA_HALF};
    if (!tiled) {
        const std::vector<int64_t> filter = {rng.integer(1, 5), rng.integer(1, 5)};
        return fft_problem(rng, direction, kind, rng.pick(types), filter, {rng.integer(1, 21), rng.integer(1, 21)},
                           rng.integer(1, 2));
    }
    types.push_back(CUDNN_DATA_DOUBLE);  // where the FFT is 1-d or 3-d
    if (direction == ConvDirection::backward_filter) {
        const std::vector<int64_t> filter = {1, rng.integer(1, 9)};
        return fft_problem(rng, direction, kind, rng.pick(types), filter, {1, rng.integer(20, 90)}, rng.integer(1, 2));
    }
    switch (rng.integer(0, 3)) {
        case 0: {  // 3-d, one dim longer than a tile
            const std::vector<int64_t> filter = {rng.integer(1, 3), rng.integer(1, 3), rng.integer(1, 4)};
            return fft_problem(rng, direction, kind, rng.pick(types), filter,
                               {rng.integer(1, 5), rng.integer(1, 6), rng.integer(20, 40)}, 1);
        }
        case 1: {  // a 1-d filter
            const std::vector<int64_t> filter = {1, rng.integer(2, 40)};
            return fft_problem(rng, direction, kind, rng.pick(types), filter, {rng.integer(1, 4), rng.integer(30, 90)},
                               rng.integer(1, 2));
        }
        case 2: {  // a filter of 17 to 20 (64-point tiles)
            const std::vector<int64_t> filter = {rng.integer(17, 20), rng.integer(1, 3)};
            return fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, filter, {rng.integer(40, 80), rng.integer(1, 8)},
                               1);
        }
        default: {  // small filters, several 32-point tiles, stride 1 or 2
            const std::vector<int64_t> filter = {rng.integer(2, 5), rng.integer(2, 5)};
            const std::vector<int64_t> strides = {rng.integer(1, 2), rng.integer(1, 2)};
            return fft_problem(rng, direction, kind, rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF}),
                               filter, {rng.integer(20, 45), rng.integer(25, 70)}, rng.integer(1, 2), strides);
        }
    }
}

// Per channel of a tensor [A][B][spatial...] in index order: the 1-norm and 2-norm of its values.
struct ChannelNorms {
    std::vector<double> l1, l2;
};

ChannelNorms channel_norms(const HostTensor &t) {
    const std::vector<double> values = element_values(t);
    const int64_t channels = t.geometry.dims[0] * t.geometry.dims[1];
    const int64_t size = static_cast<int64_t>(values.size()) / channels;
    ChannelNorms norms{std::vector<double>(static_cast<size_t>(channels)),
                       std::vector<double>(static_cast<size_t>(channels))};
    for (int64_t ch = 0; ch < channels; ++ch) {
        double l1 = 0, l2 = 0;
        for (int64_t i = 0; i < size; ++i) {
            const double v = values[static_cast<size_t>(ch * size + i)];
            l1 += std::fabs(v);
            l2 += v * v;
        }
        norms.l1[static_cast<size_t>(ch)] = l1;
        norms.l2[static_cast<size_t>(ch)] = std::sqrt(l2);
    }
    return norms;
}

// The compute error bound of an FFT convolution, per result element. Each result is z = IFFT(sum over s
// of FFT(a_s) conj(FFT(b_s))) / n: a window a of the src channel, a filter b, s over the summed channels
// (and images and tiles for the filter gradient), n transform points. Higham's bound on a radix-2 FFT
// (Accuracy and Stability of Numerical Algorithms, thm 24.2) is log2(n) eta ||exact||_2, eta = mu +
// gamma_4 (sqrt(2) + mu) <= 8 u with twiddles rounded once from double (mu <= sqrt(2) u). With ||FFT a||_2 =
// sqrt(n) ||a||_2 and |FFT b| <= ||b||_1 pointwise, the errors of the two forward transforms, of the
// complex products (sqrt(2) gamma_2) and of the sum of S of them (gamma_S), and of the inverse transform
// each add at most (log2(n) eta or (S + 4) u) * max(||a||_2 ||b||_1, ||a||_1 ||b||_2) per term, in the
// 2-norm over the result's points, which bounds every one of them:
//   |error| <= (3 log2(n) 8 u + (S + 4) u) * sum over s of max(||a_s||_2 ||b_s||_1, ||a_s||_1 ||b_s||_2).
// A window is part of its src channel, so the channel's norms bound its own. The filter gradient's
// windows overlap (each x value lies in at most 2 windows per tiled dim, as each tile moves by at least
// half its transform): its x norms count 2^dims times. n is bounded by the next power of two of
// x + max(2 pad, filter - 1) per dim (no implementation transforms more: FFT_TILING's tiles are smaller).
std::vector<ElementBound> fft_bounds(const ConvProblem &p, const Inputs &in, const std::vector<double> &value,
                                     const HostTensor &initial) {
    const double u = accumulation_roundoff(p.x.dtype);
    double log2_points = 0;
    for (int d = 0; d < p.spatial_dims; ++d) {
        const int64_t extent = p.input_extent(d) + std::max(2 * p.pad[d], p.filter_extent(d) - 1);
        log2_points += std::ceil(std::log2(static_cast<double>(extent)));
    }
    const ChannelNorms x = channel_norms(in.x), w = channel_norms(in.w), dy = channel_norms(in.y);
    auto term = [](const ChannelNorms &a, int64_t i, const ChannelNorms &b, int64_t j) {
        const size_t si = static_cast<size_t>(i), sj = static_cast<size_t>(j);
        return std::max(a.l2[si] * b.l1[sj], a.l1[si] * b.l2[sj]);
    };
    const int64_t n = p.batch(), c = p.input_channels(), k = p.output_channels();
    const int64_t cg = p.channels_per_group(), kg = p.filters_per_group();
    const TensorGeometry &out = p.result();
    const int64_t per_channel = out.element_count() / (out.dims[0] * out.dims[1]);
    const double overlap = p.direction == ConvDirection::backward_filter ? std::pow(2.0, p.spatial_dims) : 1.0;
    // A tile of dy moves by at least 16 (half a 32-point transform), or there is one.
    double tiles = 1;
    for (int d = 0; d < p.spatial_dims; ++d) tiles *= std::ceil(static_cast<double>(p.output_extent(d)) / 16.0);
    double terms = 0;
    std::vector<double> channel_bound(static_cast<size_t>(out.dims[0] * out.dims[1]));
    for (int64_t a = 0; a < out.dims[0]; ++a) {
        for (int64_t b = 0; b < out.dims[1]; ++b) {
            double sum = 0;
            switch (p.direction) {
                case ConvDirection::forward:  // y[a = n][b = k]: over the group's channels
                    for (int64_t ci = 0; ci < cg; ++ci) sum += term(x, a * c + b / kg * cg + ci, w, b * cg + ci);
                    terms = static_cast<double>(cg);
                    break;
                case ConvDirection::backward_data:  // dx[a = n][b = c]: over the group's filters
                    for (int64_t ki = 0; ki < kg; ++ki) {
                        const int64_t filter = b / cg * kg + ki;
                        sum += term(dy, a * k + filter, w, filter * cg + b % cg);
                    }
                    terms = static_cast<double>(kg);
                    break;
                case ConvDirection::backward_filter:  // dw[a = k][b = c in the group]: over the images
                    for (int64_t image = 0; image < n; ++image) {
                        sum += overlap * term(x, image * c + a / kg * cg + b, dy, image * k + a);
                    }
                    terms = static_cast<double>(n) * tiles;  // images x tiles of dy
                    break;
            }
            channel_bound[static_cast<size_t>(a * out.dims[1] + b)] = sum;
        }
    }
    const double fft_factor = 3.0 * log2_points * 8.0 * u + (terms + 4.0) * u;
    const double step =
        tolerance_for(p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT).compute_eps;
    const std::vector<double> old = element_values(initial);
    std::vector<ElementBound> bounds(value.size());
    for (size_t i = 0; i < value.size(); ++i) {
        const double before = p.beta == 0.0 ? 0.0 : p.beta * old[i];
        const double fft_error = fft_factor * channel_bound[i / static_cast<size_t>(per_channel)];
        bounds[i].compute_error =
            std::fabs(p.alpha) * fft_error + step * (std::fabs(p.alpha * value[i]) + std::fabs(before));
        bounds[i].exact = p.alpha * value[i] + before;
    }
    return bounds;
}

// Runs `p` (its FFT algorithm) against the reference; false when the backend does not run it (the host
// must run every problem these tests make).
bool check_fft_against_reference(Random &rng, const ConvProblem &p) {
    Handle handle;
    const std::string text = to_problem_string(p).to_string();
    SCOPED_TRACE(text);
    const std::vector<int> algorithms = runnable_algorithms(handle, p);
    const bool runs = std::find(algorithms.begin(), algorithms.end(), p.algorithm) != algorithms.end();
    if (test_backend() == TestBackend::host) {
        EXPECT_TRUE(runs) << "the host does not list its FFT algorithm for this problem";
    }
    if (!runs) return false;
    Inputs in = random_inputs(rng, p);
    HostTensor initial(p.result());
    if (p.beta == 0.0) {
        poison(initial);
    } else {
        initial = p.direction == ConvDirection::forward         ? in.y
                  : p.direction == ConvDirection::backward_data ? in.x
                                                                : in.w;
    }
    HostTensor result(p.result());
    auto run = [&](const std::vector<uint8_t> &start) { return run_api(handle, p, in, start); };
    result.bytes = p.beta == 0.0 ? run_poisoned(initial, run) : run(initial.bytes);
    const std::vector<double> value = reference_result(p, in.x, in.w, in.y, false);
    const std::vector<ElementBound> bounds = fft_bounds(p, in, value, initial);
    EXPECT_TRUE(matches_reference(result, rounded_reference(initial, bounds), bounds, text));
    return true;
}

void check_fft_trials(ConvDirection direction) {
    LIBREDNN_SEEDED_RANDOM(rng);
    int ran = 0;
    for (FftKind kind : {FftKind::whole, FftKind::tiled}) {
        for (int trial = 0; trial < 15; ++trial) {
            ran += check_fft_against_reference(rng, random_fft_problem(rng, direction, kind)) ? 1 : 0;
        }
    }
    if (ran == 0) GTEST_SKIP() << "the " << test_backend_name() << " backend runs no FFT convolution";
}

TEST(ConvolutionFft, ForwardFftAndFftTilingMatchReference) { check_fft_trials(ConvDirection::forward); }

TEST(ConvolutionFft, BackwardDataFftAndFftTilingMatchReference) { check_fft_trials(ConvDirection::backward_data); }

TEST(ConvolutionFft, BackwardFilterFftAndFftTilingMatchReference) { check_fft_trials(ConvDirection::backward_filter); }

// Calls the problem's direction with its algorithm and no workspace; the status.
cudnnStatus_t run_without_workspace(Handle &handle, const ConvProblem &p, size_t workspace_bytes = 0) {
    TensorDescriptor x_desc(p.x), y_desc(p.y);
    FilterDescriptor w_desc(p.w, p.filter_format);
    ConvDescriptor conv(p);
    HostTensor xt(p.x), wt(p.w), yt(p.y);
    DeviceBuffer x(xt.bytes), w(wt.bytes), y(yt.bytes);
    DeviceBuffer workspace(std::vector<uint8_t>(std::max<size_t>(workspace_bytes, 1), 0));
    // Scaling factors are doubles for double data.
    const bool in_double = p.x.dtype == CUDNN_DATA_DOUBLE;
    const Scalar one_scalar(1.0, in_double), zero_scalar(0.0, in_double);
    const void *one = one_scalar.get(), *zero = zero_scalar.get();
    void *space = workspace_bytes > 0 ? workspace.get() : nullptr;
    switch (p.direction) {
        case ConvDirection::forward:
            return cudnnConvolutionForward(handle, one, x_desc, x.get(), w_desc, w.get(), conv,
                                           static_cast<cudnnConvolutionFwdAlgo_t>(p.algorithm), space, workspace_bytes,
                                           zero, y_desc, y.get());
        case ConvDirection::backward_data:
            return cudnnConvolutionBackwardData(handle, one, w_desc, w.get(), y_desc, y.get(), conv,
                                                static_cast<cudnnConvolutionBwdDataAlgo_t>(p.algorithm), space,
                                                workspace_bytes, zero, x_desc, x.get());
        case ConvDirection::backward_filter: break;
    }
    return cudnnConvolutionBackwardFilter(handle, one, x_desc, x.get(), y_desc, y.get(), conv,
                                          static_cast<cudnnConvolutionBwdFilterAlgo_t>(p.algorithm), space,
                                          workspace_bytes, zero, w_desc, w.get());
}

// What cuDNN's tables leave out answers NOT_SUPPORTED, naming the rule.
TEST(ConvolutionFft, InapplicableProblemsAnswerNotSupportedWithTheReason) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        for (FftKind kind : {FftKind::whole, FftKind::tiled}) {
            const bool tiled = kind == FftKind::tiled;
            const bool one_d = tiled && direction == ConvDirection::backward_filter;
            auto base = [&] {
                return fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {one_d ? 1 : 3, 3}, {one_d ? 1 : 6, 6}, 1);
            };
            SCOPED_TRACE(std::string(conv_direction_name(direction)) + (tiled ? " FFT_TILING" : " FFT"));
            // FFT_TILING forward and backward data take stride 2 where neither filter dim is 1.
            const bool stride_two_ok = tiled && direction != ConvDirection::backward_filter;
            ConvProblem strided = base();
            strided.stride[1] = stride_two_ok ? 3 : 2;
            int64_t y_dims[kMaxDims];
            conv_output_dims(strided, strided.x.dims, strided.w.dims, y_dims);
            strided.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, strided),
                            stride_two_ok ? "strides of 1 or 2" : "unit strides");
            if (stride_two_ok) {
                const ConvProblem one_d_strided =
                    fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {1, 3}, {4, 9}, 1, {1, 2});
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, one_d_strided),
                                "unit strides", "height or width 1");
            }
            ConvProblem dilated = base();
            dilated.dilation[1] = 2;
            dilated.pad[1] = 0;
            conv_output_dims(dilated, dilated.x.dims, dilated.w.dims, y_dims);
            dilated.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, dilated), "unit dilation");
            ConvProblem padded = base();
            padded.pad[1] = 3;
            conv_output_dims(padded, padded.x.dims, padded.w.dims, y_dims);
            padded.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, padded),
                            "padding smaller than the filter");
            ConvProblem nhwc = base();
            nhwc.filter_format = CUDNN_TENSOR_NHWC;
            nhwc.w = packed_geometry(CUDNN_DATA_FLOAT, 4, nhwc.w.dims, PackedLayout::nhwc);
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, nhwc), "CUDNN_TENSOR_NCHW");
            // Two groups: at least two channels, so that NHWC is not NCHW.
            ConvProblem x_nhwc =
                fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {one_d ? 1 : 3, 3}, {one_d ? 1 : 6, 6}, 2);
            TensorGeometry &xg = direction == ConvDirection::backward_data ? x_nhwc.y : x_nhwc.x;
            xg = packed_geometry(CUDNN_DATA_FLOAT, 4, xg.dims, PackedLayout::nhwc);
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, x_nhwc), "packed spatial dims");
            ConvProblem true_half = fft_problem(rng, direction, kind, CUDNN_DATA_HALF, {one_d ? 1 : 3, 3}, {1, 6}, 1);
            true_half.compute_type = CUDNN_DATA_HALF;
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, true_half), "TRUE_HALF");
            ConvProblem one = fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {3}, {8}, 1);
            EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, one), "1 spatial dims");
            if (!tiled) {
                ConvProblem large = fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {3, 3}, {1, 256}, 1);
                large.pad[1] = 1;
                large.x.dims[3] = 255;
                large.x = packed_geometry(CUDNN_DATA_FLOAT, 4, large.x.dims, PackedLayout::nchw);
                conv_output_dims(large, large.x.dims, large.w.dims, y_dims);
                large.y = packed_geometry(CUDNN_DATA_FLOAT, 4, y_dims, PackedLayout::nchw);
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, large), "<= 256", "got 257");
                ConvProblem in_double = fft_problem(rng, direction, kind, CUDNN_DATA_DOUBLE, {1, 3}, {4, 6}, 1);
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, in_double), "DOUBLE");
            } else if (direction == ConvDirection::backward_filter) {
                ConvProblem two_d = fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {3, 3}, {6, 6}, 1);
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, two_d), "a 1-d FFT");
            } else {
                ConvProblem wide = fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {33, 3}, {40, 6}, 1);
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, wide), "32 or less");
                ConvProblem in_double = fft_problem(rng, direction, kind, CUDNN_DATA_DOUBLE, {3, 3}, {6, 6}, 1);
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, in_double), "DOUBLE");
                ConvProblem deep = fft_problem(rng, direction, kind, CUDNN_DATA_FLOAT, {17, 1, 1}, {20, 2, 2}, 1);
                EXPECT_REJECTED(CUDNN_STATUS_NOT_SUPPORTED, run_without_workspace(handle, deep), "16 or less");
            }
        }
    }
}

// Less workspace than the query reports is BAD_PARAM, as for every algorithm.
TEST(ConvolutionFft, TooLittleWorkspaceIsBadParam) {
    LIBREDNN_SEEDED_RANDOM(rng);
    Handle handle;
    for (ConvDirection direction :
         {ConvDirection::forward, ConvDirection::backward_data, ConvDirection::backward_filter}) {
        const ConvProblem p = fft_problem(rng, direction, FftKind::whole, CUDNN_DATA_FLOAT, {3, 3}, {7, 9}, 1);
        if (test_backend() != TestBackend::host && runnable_algorithms(handle, p).empty()) continue;
        TensorDescriptor x_desc(p.x), y_desc(p.y);
        FilterDescriptor w_desc(p.w, p.filter_format);
        ConvDescriptor conv(p);
        const std::vector<int> algorithms = runnable_algorithms(handle, p);
        if (std::find(algorithms.begin(), algorithms.end(), p.algorithm) == algorithms.end()) {
            EXPECT_NE(test_backend(), TestBackend::host);
            continue;
        }
        const size_t needed = workspace_size(handle, p, x_desc, w_desc, conv, y_desc);
        ASSERT_GT(needed, 0u);
        EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, run_without_workspace(handle, p, needed - 1), "workSpaceSizeInBytes");
        EXPECT_EQ(run_without_workspace(handle, p, needed), CUDNN_STATUS_SUCCESS);
    }
}

}  // namespace
