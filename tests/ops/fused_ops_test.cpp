// The fused ops cuDNN 8 implements (cudnnMakeFusedOpsPlan + cudnnFusedOpsExecute) against the reference
// (src/reference/fused_ops.hpp) on random shapes, layouts and types, on the backend under test.
#include "reference/fused_ops.hpp"
#include "conv_descriptors.hpp"
#include "op_test_util.hpp"
#include "ops/conv/problem.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>

namespace {

using namespace librednn;
using namespace librednn::test;

// --- descriptors and packs --------------------------------------------------------------------------

struct ConstPack {
    cudnnFusedOpsConstParamPack_t pack = nullptr;
    explicit ConstPack(cudnnFusedOps_t ops) {
        EXPECT_EQ(cudnnCreateFusedOpsConstParamPack(&pack, ops), CUDNN_STATUS_SUCCESS);
    }
    ~ConstPack() { cudnnDestroyFusedOpsConstParamPack(pack); }
    void set(cudnnFusedOpsConstParamLabel_t label, const void *param) {
        EXPECT_EQ(cudnnSetFusedOpsConstParamPackAttribute(pack, label, param), CUDNN_STATUS_SUCCESS) << label;
    }
    void placeholder(cudnnFusedOpsConstParamLabel_t label, cudnnFusedOpsPointerPlaceHolder_t value) {
        set(label, &value);
    }
};

struct VariantPack {
    cudnnFusedOpsVariantParamPack_t pack = nullptr;
    explicit VariantPack(cudnnFusedOps_t ops) {
        EXPECT_EQ(cudnnCreateFusedOpsVariantParamPack(&pack, ops), CUDNN_STATUS_SUCCESS);
    }
    ~VariantPack() { cudnnDestroyFusedOpsVariantParamPack(pack); }
    void set(cudnnFusedOpsVariantParamLabel_t label, void *pointer) {
        EXPECT_EQ(cudnnSetFusedOpsVariantParamPackAttribute(pack, label, pointer), CUDNN_STATUS_SUCCESS) << label;
    }
};

struct Plan {
    cudnnFusedOpsPlan_t plan = nullptr;
    explicit Plan(cudnnFusedOps_t ops) { EXPECT_EQ(cudnnCreateFusedOpsPlan(&plan, ops), CUDNN_STATUS_SUCCESS); }
    ~Plan() { cudnnDestroyFusedOpsPlan(plan); }
};

struct ActivationDesc {
    cudnnActivationDescriptor_t desc = nullptr;
    explicit ActivationDesc(cudnnActivationMode_t mode) {
        EXPECT_EQ(cudnnCreateActivationDescriptor(&desc), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetActivationDescriptor(desc, mode, CUDNN_NOT_PROPAGATE_NAN, 0.0), CUDNN_STATUS_SUCCESS);
    }
    ~ActivationDesc() { cudnnDestroyActivationDescriptor(desc); }
};

reference::TensorView view_of(HostTensor &t) {
    reference::TensorView view;
    view.type = t.geometry.dtype;
    view.dims.assign(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims);
    view.strides.assign(t.geometry.strides, t.geometry.strides + t.geometry.nb_dims);
    view.data = t.data();
    return view;
}

// A packed [1, C, 1...] tensor of `nb_dims` dims.
TensorGeometry per_channel(cudnnDataType_t type, int64_t channels, int nb_dims) {
    int64_t dims[kMaxDims] = {1, channels, 1, 1, 1};
    return packed_geometry(type, nb_dims, dims, PackedLayout::nchw);
}

cudnnFusedOpsPointerPlaceHolder_t random_placeholder(Random &rng) {
    return rng.coin() ? CUDNN_PTR_ELEM_ALIGNED : CUDNN_PTR_16B_ALIGNED;
}

HostTensor downloaded(const DeviceBuffer &buffer, const TensorGeometry &g) {
    HostTensor t(g);
    t.bytes = buffer.download();
    return t;
}

// --- the convolution fusions ------------------------------------------------------------------------

struct ConvCase {
    cudnnFusedOps_t ops = CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    ConvProblem conv;
    bool scale = false, bias = false, relu = false, sums = false;
    cudnnDataType_t eq_type = CUDNN_DATA_FLOAT;

    std::string describe() const {
        std::string text = to_problem_string(conv).to_string();
        text += std::string(" scale=") + (scale ? "yes" : "no") + " bias=" + (bias ? "yes" : "no") +
                " act=" + (relu ? "relu" : "none") + " sums=" + (sums ? "yes" : "no") +
                " eqtype=" + data_type_short_name(eq_type);
        return text;
    }
};

ConvCase random_conv_case(Random &rng, cudnnFusedOps_t ops) {
    ConvCase c;
    c.ops = ops;
    ConvProblem &p = c.conv;
    p.direction =
        ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS ? ConvDirection::forward : ConvDirection::backward_filter;
    const cudnnDataType_t type =
        rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16, CUDNN_DATA_DOUBLE});
    p.compute_type = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
    p.math_type = rng.pick<cudnnMathType_t>({CUDNN_DEFAULT_MATH, CUDNN_FMA_MATH});
    p.spatial_dims = 2;
    p.groups = rng.integer(0, 3) == 0 ? 2 : 1;
    const int64_t cg = rng.integer(1, 4), kg = rng.integer(1, 4);
    int64_t x_dims[kMaxDims] = {rng.integer(1, 3), cg * p.groups}, w_dims[kMaxDims] = {kg * p.groups, cg};
    for (int i = 0; i < 2; ++i) {
        const int64_t filter = rng.integer(1, 3);
        p.pad[i] = rng.integer(0, filter / 2);
        p.stride[i] = rng.integer(1, 2);
        p.dilation[i] = 1;
        x_dims[i + 2] = rng.integer(filter, 9);
        w_dims[i + 2] = filter;
    }
    p.mode = rng.coin() ? CUDNN_CROSS_CORRELATION : CUDNN_CONVOLUTION;
    p.filter_format = rng.coin() ? CUDNN_TENSOR_NCHW : CUDNN_TENSOR_NHWC;
    p.w = packed_geometry(type, 4, w_dims,
                          p.filter_format == CUDNN_TENSOR_NHWC ? PackedLayout::nhwc : PackedLayout::nchw);
    int64_t y_dims[kMaxDims];
    conv_output_dims(p, x_dims, w_dims, y_dims);
    p.x = make_geometry(rng, type, std::vector<int64_t>(x_dims, x_dims + 4), rng.pick(all_layout_kinds()));
    p.y = make_geometry(rng, type, std::vector<int64_t>(y_dims, y_dims + 4), rng.pick(all_layout_kinds()));
    c.scale = rng.coin();
    c.bias = rng.coin();
    c.relu = rng.coin();
    c.sums = ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS && rng.integer(0, 3) != 0;
    c.eq_type = type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : (rng.coin() ? CUDNN_DATA_FLOAT : type);
    return c;
}

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

// A packed double tensor of `t`'s dims holding its values (or their magnitudes).
reference::HostTensor double_copy(const HostTensor &t, bool magnitudes) {
    reference::HostTensor copy(CUDNN_DATA_DOUBLE,
                               std::vector<int64_t>(t.geometry.dims, t.geometry.dims + t.geometry.nb_dims));
    std::vector<double> values = element_values(t);
    if (magnitudes)
        for (double &v : values) v = std::fabs(v);
    copy.set_values(values);
    return copy;
}

void check_conv_case(Random &rng, const ConvCase &c) {
    const ConvProblem &p = c.conv;
    const bool forward = c.ops == CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS;
    SCOPED_TRACE(c.describe());
    const int channels = static_cast<int>(p.x.dims[1]), outputs = static_cast<int>(p.y.dims[1]);
    HostTensor x(p.x), w(p.w), y(p.y);
    fill_uniform(x, rng, -2.0, 2.0);
    fill_uniform(w, rng, -1.0, 1.0);
    fill_uniform(y, rng, -1.0, 1.0);  // dy for wgrad
    HostTensor scale(per_channel(c.eq_type, channels, 4)), bias(per_channel(c.eq_type, channels, 4));
    fill_uniform(scale, rng, 0.5, 1.5);
    fill_uniform(bias, rng, -0.5, 0.5);
    const TensorGeometry stats_g =
        per_channel(p.x.dtype == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT, outputs, 4);
    HostTensor result(forward ? p.y : p.w), sum(stats_g), square_sum(stats_g);
    poison(result);
    poison(sum);
    poison(square_sum);

    Handle handle;
    ConstPack constants(c.ops);
    TensorDescriptor x_desc(p.x), y_desc(p.y), eq_desc(scale.geometry), stats_desc(stats_g);
    FilterDescriptor w_desc(p.w, p.filter_format);
    ConvDescriptor conv_desc(p);
    ActivationDesc activation(c.relu ? CUDNN_ACTIVATION_RELU : CUDNN_ACTIVATION_IDENTITY);
    constants.set(CUDNN_PARAM_XDESC, x_desc.get());
    constants.placeholder(CUDNN_PARAM_XDATA_PLACEHOLDER, random_placeholder(rng));
    constants.set(CUDNN_PARAM_CONV_DESC, static_cast<cudnnConvolutionDescriptor_t>(conv_desc));
    constants.set(forward ? CUDNN_PARAM_WDESC : CUDNN_PARAM_DWDESC, static_cast<cudnnFilterDescriptor_t>(w_desc));
    constants.placeholder(forward ? CUDNN_PARAM_WDATA_PLACEHOLDER : CUDNN_PARAM_DWDATA_PLACEHOLDER,
                          random_placeholder(rng));
    constants.set(forward ? CUDNN_PARAM_YDESC : CUDNN_PARAM_DYDESC, y_desc.get());
    constants.placeholder(forward ? CUDNN_PARAM_YDATA_PLACEHOLDER : CUDNN_PARAM_DYDATA_PLACEHOLDER,
                          random_placeholder(rng));
    constants.set(CUDNN_PARAM_BN_EQSCALEBIAS_DESC, eq_desc.get());
    if (c.scale) constants.placeholder(CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER, random_placeholder(rng));
    if (c.bias) constants.placeholder(CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER, random_placeholder(rng));
    if (c.relu || rng.coin()) constants.set(CUDNN_PARAM_ACTIVATION_DESC, activation.desc);  // IDENTITY: none
    if (c.sums) {
        constants.set(CUDNN_PARAM_YSTATS_DESC, stats_desc.get());
        constants.placeholder(CUDNN_PARAM_YSUM_PLACEHOLDER, random_placeholder(rng));
        constants.placeholder(CUDNN_PARAM_YSQSUM_PLACEHOLDER, random_placeholder(rng));
    }
    Plan plan(c.ops);
    size_t workspace_bytes = 12345;
    ASSERT_EQ(cudnnMakeFusedOpsPlan(handle, plan.plan, constants.pack, &workspace_bytes), CUDNN_STATUS_SUCCESS);

    DeviceBuffer x_buf(x.bytes), w_buf(forward ? w.bytes : result.bytes), y_buf(forward ? result.bytes : y.bytes);
    DeviceBuffer scale_buf(scale.bytes), bias_buf(bias.bytes), sum_buf(sum.bytes), square_buf(square_sum.bytes);
    DeviceBuffer workspace(std::vector<uint8_t>(workspace_bytes + 16, 0xff));
    VariantPack variants(c.ops);
    variants.set(CUDNN_PTR_XDATA, x_buf.get());
    variants.set(forward ? CUDNN_PTR_WDATA : CUDNN_PTR_DWDATA, w_buf.get());
    variants.set(forward ? CUDNN_PTR_YDATA : CUDNN_PTR_DYDATA, y_buf.get());
    variants.set(CUDNN_PTR_BN_EQSCALE, scale_buf.get());
    variants.set(CUDNN_PTR_BN_EQBIAS, bias_buf.get());
    variants.set(CUDNN_PTR_YSUM, sum_buf.get());
    variants.set(CUDNN_PTR_YSQSUM, square_buf.get());
    variants.set(CUDNN_PTR_WORKSPACE, workspace.get());
    variants.set(CUDNN_SCALAR_SIZE_T_WORKSPACE_SIZE_IN_BYTES, &workspace_bytes);
    ASSERT_EQ(cudnnFusedOpsExecute(handle, plan.plan, variants.pack), CUDNN_STATUS_SUCCESS);

    // The reference: x' rounded to x's type, then the convolution in double (and of the magnitudes).
    HostTensor x_prime(p.x);
    reference::TensorView scale_view = view_of(scale), bias_view = view_of(bias);
    ASSERT_EQ(reference::fused_scale_bias_activation(view_of(x), c.scale ? &scale_view : nullptr,
                                                     c.bias ? &bias_view : nullptr, c.relu, view_of(x_prime)),
              CUDNN_STATUS_SUCCESS);
    const TensorGeometry &out_g = forward ? p.y : p.w;
    const std::vector<int64_t> out_dims(out_g.dims, out_g.dims + out_g.nb_dims);
    reference::HostTensor value(CUDNN_DATA_DOUBLE, out_dims), magnitude(CUDNN_DATA_DOUBLE, out_dims);
    const reference::ConvolutionGeometry g = reference_geometry(p);
    // The magnitudes' x is |x| * |scale| + |bias| in double: x' rounds relative to its terms, not to itself (a
    // fused multiply-add and the reference's two roundings differ by that much where scale * x cancels bias).
    const reference::HostTensor abs_x = double_copy(x, true), abs_scale = double_copy(scale, true),
                                abs_bias = double_copy(bias, true);
    reference::HostTensor x_terms(CUDNN_DATA_DOUBLE, std::vector<int64_t>(p.x.dims, p.x.dims + p.x.nb_dims));
    ASSERT_EQ(reference::fused_scale_bias_activation(abs_x.view(), c.scale ? &abs_scale.view() : nullptr,
                                                     c.bias ? &abs_bias.view() : nullptr, false, x_terms.view()),
              CUDNN_STATUS_SUCCESS);
    for (bool magnitudes : {false, true}) {
        const reference::HostTensor a = magnitudes ? x_terms : double_copy(x_prime, false),
                                    b = double_copy(forward ? w : y, magnitudes);
        const Status status =
            forward ? reference::convolution_forward(g, 1.0, a, b, 0.0, magnitudes ? magnitude : value)
                    : reference::convolution_backward_filter(g, 1.0, a, b, 0.0, magnitudes ? magnitude : value);
        ASSERT_EQ(status, CUDNN_STATUS_SUCCESS);
    }
    // Bounds: the sum's rounding (float accumulation, TF32 products under DEFAULT_MATH on float data), and
    // the prologue's own rounding: x' may be one ulp of x's type off the reference's (a float fused
    // multiply-add, then the rounding to x's type), which the sum carries with each term's weight.
    const double terms = forward ? static_cast<double>(p.channels_per_group() * p.filter_size())
                                 : static_cast<double>(p.batch() * p.output_size());
    const double u = accumulation_roundoff(p.x.dtype);
    const bool tf32 = p.x.dtype == CUDNN_DATA_FLOAT && p.math_type != CUDNN_FMA_MATH;
    const double prologue = c.scale || c.bias || c.relu ? tolerance_for(p.x.dtype).unit_roundoff + u : 0.0;
    const std::vector<double> values = value.values(), weights = magnitude.values();
    std::vector<ElementBound> bounds(values.size());
    HostTensor expected = result;  // the bytes between elements as the output had them
    int64_t index[kMaxDims] = {};
    size_t e = 0;
    do {
        bounds[e].exact = values[e];
        bounds[e].compute_error = sum_error(terms, weights[e], u) + ((tf32 ? 0x1p-10 : u) + prologue) * weights[e];
        expected.set(index, values[e]);
        ++e;
    } while (next_index(index, out_g.dims, out_g.nb_dims));
    const HostTensor got = downloaded(forward ? y_buf : w_buf, out_g);
    EXPECT_TRUE(matches_reference(got, expected, bounds, c.describe()));

    if (c.sums) {
        // The sums of y as stored: the reference sums the y this backend wrote, in double.
        HostTensor y_got = got, sum_ref(stats_g), square_ref(stats_g);
        const reference::TensorView sum_view = view_of(sum_ref), square_view = view_of(square_ref);
        ASSERT_EQ(reference::fused_channel_sums(view_of(y_got), &sum_view, &square_view), CUDNN_STATUS_SUCCESS);
        HostTensor abs_y = y_got;
        int64_t i[kMaxDims] = {};
        do {
            abs_y.set(i, std::fabs(y_got.at(i)));
        } while (next_index(i, abs_y.geometry.dims, abs_y.geometry.nb_dims));
        HostTensor abs_sum(stats_g);
        const reference::TensorView abs_view = view_of(abs_sum);
        ASSERT_EQ(reference::fused_channel_sums(view_of(abs_y), &abs_view, nullptr), CUDNN_STATUS_SUCCESS);
        const double per_channel_count = static_cast<double>(p.y.element_count() / outputs);
        std::vector<ElementBound> sum_bounds(static_cast<size_t>(outputs)), square_bounds(sum_bounds.size());
        int64_t k[kMaxDims] = {};
        for (int ch = 0; ch < outputs; ++ch) {
            k[1] = ch;
            sum_bounds[static_cast<size_t>(ch)] = {sum_error(per_channel_count, abs_sum.at(k), 0x1p-53), sum_ref.at(k)};
            square_bounds[static_cast<size_t>(ch)] = {sum_error(per_channel_count, square_ref.at(k), 0x1p-53),
                                                      square_ref.at(k)};
        }
        EXPECT_TRUE(matches_reference(downloaded(sum_buf, stats_g), sum_ref, sum_bounds, c.describe() + " ySum"));
        EXPECT_TRUE(
            matches_reference(downloaded(square_buf, stats_g), square_ref, square_bounds, c.describe() + " ySqSum"));
    }
}

TEST(FusedOps, ConvBnstatsMatchesReferenceOnRandomShapes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 24; ++trial)
        check_conv_case(rng, random_conv_case(rng, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_CONV_BNSTATS));
}

TEST(FusedOps, WgradMatchesReferenceOnRandomShapes) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 24; ++trial)
        check_conv_case(rng, random_conv_case(rng, CUDNN_FUSED_SCALE_BIAS_ACTIVATION_WGRAD));
}

// --- the batch-norm finalizations --------------------------------------------------------------------

void check_finalize(Random &rng, bool training) {
    const cudnnFusedOps_t ops =
        training ? CUDNN_FUSED_BN_FINALIZE_STATISTICS_TRAINING : CUDNN_FUSED_BN_FINALIZE_STATISTICS_INFERENCE;
    const int64_t channels = rng.integer(1, 40);
    const int nb_dims = rng.coin() ? 4 : 5;
    const cudnnDataType_t param_type = rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE});
    const cudnnDataType_t eq_type =
        rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_HALF, CUDNN_DATA_BFLOAT16, CUDNN_DATA_DOUBLE});
    const cudnnDataType_t stats_type = rng.pick<cudnnDataType_t>({CUDNN_DATA_FLOAT, CUDNN_DATA_DOUBLE});
    const int64_t count = rng.integer(2, 5000);
    const double epsilon = rng.pick<double>({0.0, 1e-5, 1e-3}), factor = rng.uniform(0.0, 1.0);
    const bool saved_mean = rng.coin(), saved_invstd = rng.coin(), running_mean = rng.coin(), running_var = rng.coin();
    const std::string problem = std::string(training ? "bn_finalize_training" : "bn_finalize_inference") +
                                " c=" + std::to_string(channels) + " ptype=" + data_type_short_name(param_type) +
                                " eqtype=" + data_type_short_name(eq_type) +
                                " statstype=" + data_type_short_name(stats_type) + " m=" + std::to_string(count);
    SCOPED_TRACE(problem);
    const TensorGeometry pg = per_channel(param_type, channels, nb_dims), eg = per_channel(eq_type, channels, nb_dims),
                         sg = per_channel(stats_type, channels, nb_dims);
    HostTensor scale(pg), bias(pg), r_mean(pg), r_var(pg), s_mean(pg), s_invstd(pg), eq_scale(eg), eq_bias(eg);
    HostTensor sum(sg), square_sum(sg);
    fill_uniform(scale, rng, 0.5, 1.5);
    fill_uniform(bias, rng, -0.5, 0.5);
    fill_uniform(r_mean, rng, -1.0, 1.0);
    fill_uniform(r_var, rng, 0.1, 2.0);
    // Sums of `count` values per channel with mean in [-1, 1] and variance in [0.1, 2].
    int64_t k[kMaxDims] = {};
    for (int64_t c = 0; c < channels; ++c) {
        k[1] = c;
        const double mean = rng.uniform(-1.0, 1.0), variance = rng.uniform(0.1, 2.0);
        sum.set(k, mean * static_cast<double>(count));
        square_sum.set(k, (variance + mean * mean) * static_cast<double>(count));
    }
    for (HostTensor *t : {&s_mean, &s_invstd, &eq_scale, &eq_bias}) poison(*t);

    Handle handle;
    ConstPack constants(ops);
    TensorDescriptor p_desc(pg), e_desc(eg), s_desc(sg);
    const cudnnBatchNormMode_t mode = rng.coin() ? CUDNN_BATCHNORM_SPATIAL : CUDNN_BATCHNORM_SPATIAL_PERSISTENT;
    constants.set(CUDNN_PARAM_BN_MODE, &mode);
    constants.set(CUDNN_PARAM_BN_SCALEBIAS_MEANVAR_DESC, p_desc.get());
    constants.set(CUDNN_PARAM_BN_EQSCALEBIAS_DESC, e_desc.get());
    for (auto label : {CUDNN_PARAM_BN_SCALE_PLACEHOLDER, CUDNN_PARAM_BN_BIAS_PLACEHOLDER,
                       CUDNN_PARAM_BN_EQSCALE_PLACEHOLDER, CUDNN_PARAM_BN_EQBIAS_PLACEHOLDER})
        constants.placeholder(label, random_placeholder(rng));
    if (training) {
        constants.set(CUDNN_PARAM_YSTATS_DESC, s_desc.get());
        constants.placeholder(CUDNN_PARAM_YSUM_PLACEHOLDER, random_placeholder(rng));
        constants.placeholder(CUDNN_PARAM_YSQSUM_PLACEHOLDER, random_placeholder(rng));
        if (saved_mean) constants.placeholder(CUDNN_PARAM_BN_SAVED_MEAN_PLACEHOLDER, random_placeholder(rng));
        if (saved_invstd) constants.placeholder(CUDNN_PARAM_BN_SAVED_INVSTD_PLACEHOLDER, random_placeholder(rng));
        if (running_mean) constants.placeholder(CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, random_placeholder(rng));
        if (running_var) constants.placeholder(CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, random_placeholder(rng));
    } else {
        constants.placeholder(CUDNN_PARAM_BN_RUNNING_MEAN_PLACEHOLDER, random_placeholder(rng));
        constants.placeholder(CUDNN_PARAM_BN_RUNNING_VAR_PLACEHOLDER, random_placeholder(rng));
    }
    Plan plan(ops);
    size_t workspace_bytes = 1;
    ASSERT_EQ(cudnnMakeFusedOpsPlan(handle, plan.plan, constants.pack, &workspace_bytes), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(workspace_bytes, 0u);

    DeviceBuffer scale_b(scale.bytes), bias_b(bias.bytes), r_mean_b(r_mean.bytes), r_var_b(r_var.bytes);
    DeviceBuffer s_mean_b(s_mean.bytes), s_invstd_b(s_invstd.bytes), eq_scale_b(eq_scale.bytes),
        eq_bias_b(eq_bias.bytes), sum_b(sum.bytes), square_b(square_sum.bytes);
    VariantPack variants(ops);
    variants.set(CUDNN_PTR_BN_SCALE, scale_b.get());
    variants.set(CUDNN_PTR_BN_BIAS, bias_b.get());
    variants.set(CUDNN_PTR_BN_RUNNING_MEAN, r_mean_b.get());
    variants.set(CUDNN_PTR_BN_RUNNING_VAR, r_var_b.get());
    variants.set(CUDNN_PTR_BN_SAVED_MEAN, s_mean_b.get());
    variants.set(CUDNN_PTR_BN_SAVED_INVSTD, s_invstd_b.get());
    variants.set(CUDNN_PTR_BN_EQSCALE, eq_scale_b.get());
    variants.set(CUDNN_PTR_BN_EQBIAS, eq_bias_b.get());
    variants.set(CUDNN_PTR_YSUM, sum_b.get());
    variants.set(CUDNN_PTR_YSQSUM, square_b.get());
    int64_t m = count;
    double eps = epsilon, f = factor;
    variants.set(CUDNN_SCALAR_INT64_T_BN_ACCUMULATION_COUNT, &m);
    variants.set(CUDNN_SCALAR_DOUBLE_BN_EPSILON, &eps);
    variants.set(CUDNN_SCALAR_DOUBLE_BN_EXP_AVG_FACTOR, &f);
    ASSERT_EQ(cudnnFusedOpsExecute(handle, plan.plan, variants.pack), CUDNN_STATUS_SUCCESS);

    // The reference, into copies: outputs not asked for keep their initial bytes.
    HostTensor ref_eq_scale = eq_scale, ref_eq_bias = eq_bias, ref_s_mean = s_mean, ref_s_invstd = s_invstd,
               ref_r_mean = r_mean, ref_r_var = r_var;
    const reference::TensorView sm = view_of(ref_s_mean), si = view_of(ref_s_invstd), rm = view_of(ref_r_mean),
                                rv = view_of(ref_r_var);
    if (training) {
        reference::BnFinalizeTrainingOutputs outputs;
        outputs.saved_mean = saved_mean ? &sm : nullptr;
        outputs.saved_invstd = saved_invstd ? &si : nullptr;
        outputs.running_mean = running_mean ? &rm : nullptr;
        outputs.running_var = running_var ? &rv : nullptr;
        ASSERT_EQ(
            reference::bn_finalize_training(view_of(sum), view_of(square_sum), count, view_of(scale), view_of(bias),
                                            epsilon, factor, view_of(ref_eq_scale), view_of(ref_eq_bias), outputs),
            CUDNN_STATUS_SUCCESS);
    } else {
        ASSERT_EQ(reference::bn_finalize_inference(view_of(scale), view_of(bias), view_of(r_mean), view_of(r_var),
                                                   epsilon, view_of(ref_eq_scale), view_of(ref_eq_bias)),
                  CUDNN_STATUS_SUCCESS);
    }
    // Both backends compute in double and round once: a few double roundings, relative to the terms
    // (the variance is a difference of ySqSum / M and mean^2, which the magnitudes include).
    std::vector<double> magnitude(static_cast<size_t>(channels));
    for (int64_t c = 0; c < channels; ++c) {
        k[1] = c;
        const double mean = training ? sum.at(k) / static_cast<double>(count) : r_mean.at(k);
        const double second = training ? square_sum.at(k) / static_cast<double>(count) : r_var.at(k);
        magnitude[static_cast<size_t>(c)] = (std::fabs(mean) + 1.0) * (second + mean * mean + 1.0) * 4.0;
    }
    const auto same = [&](const DeviceBuffer &got, const HostTensor &ref, const char *name) {
        EXPECT_TRUE(matches_reference(downloaded(got, ref.geometry), ref, magnitude, problem + " " + name));
    };
    same(eq_scale_b, ref_eq_scale, "eqScale");
    same(eq_bias_b, ref_eq_bias, "eqBias");
    same(s_mean_b, ref_s_mean, "savedMean");
    same(s_invstd_b, ref_s_invstd, "savedInvStd");
    same(r_mean_b, ref_r_mean, "runningMean");
    same(r_var_b, ref_r_var, "runningVar");
}

TEST(FusedOps, BnFinalizeTrainingMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 20; ++trial) check_finalize(rng, true);
}

TEST(FusedOps, BnFinalizeInferenceMatchesReference) {
    LIBREDNN_SEEDED_RANDOM(rng);
    for (int trial = 0; trial < 20; ++trial) check_finalize(rng, false);
}

}  // namespace
