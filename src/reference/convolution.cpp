// The reference convolution: each output element is one plain sum over the inputs that reach it.
#include "reference/convolution.hpp"

#include <cmath>
#include <string>

namespace librednn::reference {

namespace {

// Where filter tap `f` of `filter_size` taps sits in the window: convolution flips the filter.
int64_t tap_position(cudnnConvolutionMode_t mode, int64_t f, int64_t filter_size) {
    return mode == CUDNN_CONVOLUTION ? filter_size - 1 - f : f;
}

// The input coordinate along spatial dim `d` that output coordinate `o` reads through filter tap `f`.
int64_t input_coordinate(const ConvolutionGeometry &conv, int d, int64_t o, int64_t f, int64_t filter_size) {
    return o * conv.stride[d] - conv.padding[d] + tap_position(conv.mode, f, filter_size) * conv.dilation[d];
}

std::vector<int64_t> spatial_dims(const TensorView &view) { return {view.dims.begin() + 2, view.dims.end()}; }

// The checks every direction shares: views usable, ranks and geometry agree, channels split into
// groups, and `y` has the forward output dims of `x` and `w`. Names are the caller's argument names.
Status check_convolution(const ConvolutionGeometry &conv, const TensorView &x, const char *x_name, const TensorView &w,
                         const char *w_name, const TensorView &y, const char *y_name) {
    LIBREDNN_CHECK(check_view(x, x_name));
    LIBREDNN_CHECK(check_view(w, w_name));
    LIBREDNN_CHECK(check_view(y, y_name));
    if (x.rank() < 3 || w.rank() != x.rank() || y.rank() != x.rank()) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s, %s and %s have %d, %d and %d dims; all need the same, at least 3",
                    x_name, w_name, y_name, x.rank(), w.rank(), y.rank());
    }
    const size_t spatial = static_cast<size_t>(x.rank() - 2);
    if (conv.padding.size() != spatial || conv.stride.size() != spatial || conv.dilation.size() != spatial) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "the geometry has %zu paddings, %zu strides and %zu dilations; the tensors have %zu spatial dims",
                    conv.padding.size(), conv.stride.size(), conv.dilation.size(), spatial);
    }
    for (size_t d = 0; d < spatial; ++d) {
        if (conv.padding[d] < 0 || conv.stride[d] < 1 || conv.dilation[d] < 1) {
            return fail(CUDNN_STATUS_BAD_PARAM,
                        "spatial dim %zu has padding %lld, stride %lld and dilation %lld; padding must be "
                        "non-negative, stride and dilation positive",
                        d, static_cast<long long>(conv.padding[d]), static_cast<long long>(conv.stride[d]),
                        static_cast<long long>(conv.dilation[d]));
        }
    }
    if (conv.mode != CUDNN_CONVOLUTION && conv.mode != CUDNN_CROSS_CORRELATION) {
        return fail(CUDNN_STATUS_BAD_PARAM, "mode is %d, not a cudnnConvolutionMode_t", static_cast<int>(conv.mode));
    }
    if (conv.groups < 1 || w.dims[0] % conv.groups != 0 || x.dims[1] != w.dims[1] * conv.groups) {
        return fail(CUDNN_STATUS_BAD_PARAM,
                    "%s has %lld channels and %s is %s with %lld groups; needs channels == filter C x groups and "
                    "K divisible by groups",
                    x_name, static_cast<long long>(x.dims[1]), w_name, dims_to_string(w.dims).c_str(),
                    static_cast<long long>(conv.groups));
    }
    const std::vector<int64_t> expected = convolution_output_dims(conv, x.dims, w.dims);
    for (size_t d = 2; d < expected.size(); ++d) {
        if (expected[d] < 1) {
            return fail(CUDNN_STATUS_BAD_PARAM, "the dilated filter %s does not fit in the padded input %s",
                        dims_to_string(w.dims).c_str(), dims_to_string(x.dims).c_str());
        }
    }
    if (y.dims != expected) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s; the convolution of %s %s with %s %s produces %s", y_name,
                    dims_to_string(y.dims).c_str(), x_name, dims_to_string(x.dims).c_str(), w_name,
                    dims_to_string(w.dims).c_str(), dims_to_string(expected).c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

// A bias (or bias gradient) of K channels: dims [1, K, 1...] with as many dims as `like`.
Status check_bias(const TensorView &bias, const char *bias_name, const TensorView &like, const char *like_name) {
    LIBREDNN_CHECK(check_view(bias, bias_name));
    std::vector<int64_t> expected(like.dims.size(), 1);
    expected[1] = like.dims[1];
    if (bias.dims != expected) {
        return fail(CUDNN_STATUS_BAD_PARAM, "%s is %s; for %s %s it must be %s", bias_name,
                    dims_to_string(bias.dims).c_str(), like_name, dims_to_string(like.dims).c_str(),
                    dims_to_string(expected).c_str());
    }
    return CUDNN_STATUS_SUCCESS;
}

// conv(x, w) at output position `out` = (n, k, o...).
double convolve_at(const ConvolutionGeometry &conv, const TensorView &x, const TensorView &w, const Index &out) {
    const int spatial = x.rank() - 2;
    const int64_t channels_per_group = w.dims[1];
    const int64_t group = out[1] / (w.dims[0] / conv.groups);
    const std::vector<int64_t> filter_dims = spatial_dims(w);
    Index x_index(x.rank()), w_index(w.rank());
    x_index[0] = out[0];
    w_index[0] = out[1];
    double sum = 0;
    for (int64_t c = 0; c < channels_per_group; ++c) {
        x_index[1] = group * channels_per_group + c;
        w_index[1] = c;
        for_each_index(filter_dims, [&](const Index &f) {
            for (int d = 0; d < spatial; ++d) {
                const int64_t i = input_coordinate(conv, d, out[2 + d], f[d], w.dims[2 + d]);
                if (i < 0 || i >= x.dims[2 + d]) return;  // in the padding: reads as zero
                x_index[2 + d] = i;
                w_index[2 + d] = f[d];
            }
            sum += x.read(x_index) * w.read(w_index);
        });
    }
    return sum;
}

// The gradient reaching input position `in` = (n, c, i...): every (k, f) pair of its group whose tap
// lands on i from a whole output coordinate o, i.e. o*stride == i + pad - tap(f)*dilation.
double transpose_convolve_at(const ConvolutionGeometry &conv, const TensorView &w, const TensorView &dy,
                             const Index &in) {
    const int spatial = dy.rank() - 2;
    const int64_t channels_per_group = w.dims[1];
    const int64_t filters_per_group = w.dims[0] / conv.groups;
    const int64_t group = in[1] / channels_per_group;
    const std::vector<int64_t> filter_dims = spatial_dims(w);
    Index dy_index(dy.rank()), w_index(w.rank());
    dy_index[0] = in[0];
    w_index[1] = in[1] % channels_per_group;
    double sum = 0;
    for (int64_t k = group * filters_per_group; k < (group + 1) * filters_per_group; ++k) {
        dy_index[1] = k;
        w_index[0] = k;
        for_each_index(filter_dims, [&](const Index &f) {
            for (int d = 0; d < spatial; ++d) {
                const int64_t reach =
                    in[2 + d] + conv.padding[d] - tap_position(conv.mode, f[d], w.dims[2 + d]) * conv.dilation[d];
                if (reach < 0 || reach % conv.stride[d] != 0 || reach / conv.stride[d] >= dy.dims[2 + d]) return;
                dy_index[2 + d] = reach / conv.stride[d];
                w_index[2 + d] = f[d];
            }
            sum += dy.read(dy_index) * w.read(w_index);
        });
    }
    return sum;
}

// The gradient of filter element `tap` = (k, c, f...): dy[n, k, o] times the input that f reads at o,
// over every image n and output position o.
double filter_gradient_at(const ConvolutionGeometry &conv, const TensorView &x, const TensorView &dy,
                          const TensorView &dw, const Index &tap) {
    const int spatial = x.rank() - 2;
    const int64_t channels_per_group = dw.dims[1];
    const int64_t group = tap[0] / (dw.dims[0] / conv.groups);
    std::vector<int64_t> images_and_positions = dy.dims;
    images_and_positions[1] = 1;
    Index x_index(x.rank());
    double sum = 0;
    for_each_index(images_and_positions, [&](const Index &position) {
        Index dy_index = position;
        dy_index[1] = tap[0];
        x_index[0] = position[0];
        x_index[1] = group * channels_per_group + tap[1];
        for (int d = 0; d < spatial; ++d) {
            const int64_t i = input_coordinate(conv, d, position[2 + d], tap[2 + d], dw.dims[2 + d]);
            if (i < 0 || i >= x.dims[2 + d]) return;
            x_index[2 + d] = i;
        }
        sum += dy.read(dy_index) * x.read(x_index);
    });
    return sum;
}

}  // namespace

std::vector<int64_t> convolution_output_dims(const ConvolutionGeometry &conv, const std::vector<int64_t> &x,
                                             const std::vector<int64_t> &w) {
    if (x.size() < 2 || w.size() != x.size() || conv.padding.size() + 2 != x.size() ||
        conv.stride.size() + 2 != x.size() || conv.dilation.size() + 2 != x.size()) {
        return {};
    }
    std::vector<int64_t> y = {x[0], w[0]};
    for (size_t d = 0; d + 2 < x.size(); ++d) {
        const int64_t dilated_filter = (w[d + 2] - 1) * conv.dilation[d] + 1;
        const int64_t padded_input = x[d + 2] + 2 * conv.padding[d];
        // Floor division: a filter larger than the padded input gives 0 or less (an empty output).
        const int64_t room = padded_input - dilated_filter;
        y.push_back(room < 0 ? 0 : 1 + room / conv.stride[d]);
    }
    return y;
}

Status convolution_forward(const ConvolutionGeometry &conv, double alpha, const TensorView &x, const TensorView &w,
                           double beta, const TensorView &y) {
    LIBREDNN_CHECK(check_convolution(conv, x, "x", w, "w", y, "y"));
    for_each_index(y.dims,
                   [&](const Index &out) { store_blended(y, out, alpha * convolve_at(conv, x, w, out), beta); });
    return CUDNN_STATUS_SUCCESS;
}

Status convolution_backward_data(const ConvolutionGeometry &conv, double alpha, const TensorView &w,
                                 const TensorView &dy, double beta, const TensorView &dx) {
    LIBREDNN_CHECK(check_convolution(conv, dx, "dx", w, "w", dy, "dy"));
    for_each_index(
        dx.dims, [&](const Index &in) { store_blended(dx, in, alpha * transpose_convolve_at(conv, w, dy, in), beta); });
    return CUDNN_STATUS_SUCCESS;
}

Status convolution_backward_filter(const ConvolutionGeometry &conv, double alpha, const TensorView &x,
                                   const TensorView &dy, double beta, const TensorView &dw) {
    LIBREDNN_CHECK(check_convolution(conv, x, "x", dw, "dw", dy, "dy"));
    for_each_index(dw.dims, [&](const Index &tap) {
        store_blended(dw, tap, alpha * filter_gradient_at(conv, x, dy, dw, tap), beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

Status convolution_backward_bias(double alpha, const TensorView &dy, double beta, const TensorView &db) {
    LIBREDNN_CHECK(check_view(dy, "dy"));
    LIBREDNN_CHECK(check_bias(db, "db", dy, "dy"));
    std::vector<int64_t> images_and_positions = dy.dims;
    images_and_positions[1] = 1;
    for_each_index(db.dims, [&](const Index &channel) {
        double sum = 0;
        for_each_index(images_and_positions, [&](const Index &position) {
            Index dy_index = position;
            dy_index[1] = channel[1];
            sum += dy.read(dy_index);
        });
        store_blended(db, channel, alpha * sum, beta);
    });
    return CUDNN_STATUS_SUCCESS;
}

double apply_activation(const Activation &activation, double value) {
    const bool clamps_nan = activation.nan_opt == CUDNN_NOT_PROPAGATE_NAN;
    switch (activation.mode) {
        case CUDNN_ACTIVATION_SIGMOID: return 1 / (1 + std::exp(-value));
        case CUDNN_ACTIVATION_RELU:
            if (std::isnan(value)) return clamps_nan ? 0 : value;
            return value > 0 ? value : 0;
        case CUDNN_ACTIVATION_TANH: return std::tanh(value);
        case CUDNN_ACTIVATION_CLIPPED_RELU:
            if (std::isnan(value)) return clamps_nan ? 0 : value;
            return value <= 0 ? 0 : value >= activation.coef ? activation.coef : value;
        case CUDNN_ACTIVATION_ELU: return value > 0 ? value : activation.coef * std::expm1(value);
        case CUDNN_ACTIVATION_IDENTITY: return value;
        case CUDNN_ACTIVATION_SWISH: return value / (1 + std::exp(-activation.swish_beta * value));
    }
    return value;
}

Status convolution_bias_activation_forward(const ConvolutionGeometry &conv, double alpha1, const TensorView &x,
                                           const TensorView &w, double alpha2, const TensorView &z,
                                           const TensorView &bias, const Activation &activation, const TensorView &y) {
    LIBREDNN_CHECK(check_convolution(conv, x, "x", w, "w", y, "y"));
    LIBREDNN_CHECK(check_bias(bias, "bias", y, "y"));
    if (alpha2 != 0) {
        LIBREDNN_CHECK(check_view(z, "z"));
        if (z.dims != y.dims) {
            return fail(CUDNN_STATUS_BAD_PARAM, "z is %s; it must have the dims of y, %s",
                        dims_to_string(z.dims).c_str(), dims_to_string(y.dims).c_str());
        }
    }
    if (activation.mode < CUDNN_ACTIVATION_SIGMOID || activation.mode > CUDNN_ACTIVATION_SWISH) {
        return fail(CUDNN_STATUS_BAD_PARAM, "activation mode is %d, not a cudnnActivationMode_t",
                    static_cast<int>(activation.mode));
    }
    Index bias_index(bias.rank(), 0);
    for_each_index(y.dims, [&](const Index &out) {
        bias_index[1] = out[1];
        double value = alpha1 * convolve_at(conv, x, w, out) + bias.read(bias_index);
        if (alpha2 != 0) value += alpha2 * z.read(out);  // read before y[out] is written: z may alias y
        y.write(out, apply_activation(activation, value));
    });
    return CUDNN_STATUS_SUCCESS;
}

Status im2col(const ConvolutionGeometry &conv, const TensorView &x, const std::vector<int64_t> &filter_dims,
              const TensorView &col) {
    LIBREDNN_CHECK(check_view(x, "x"));
    LIBREDNN_CHECK(check_view(col, "col"));
    const int spatial = x.rank() - 2;
    if (spatial < 1 || static_cast<int>(filter_dims.size()) != x.rank() ||
        conv.padding.size() != static_cast<size_t>(spatial) || conv.stride.size() != static_cast<size_t>(spatial) ||
        conv.dilation.size() != static_cast<size_t>(spatial)) {
        return fail(CUDNN_STATUS_BAD_PARAM, "x %s, filter %s and the geometry disagree on the spatial dims",
                    dims_to_string(x.dims).c_str(), dims_to_string(filter_dims).c_str());
    }
    const std::vector<int64_t> out = convolution_output_dims(conv, x.dims, filter_dims);
    const std::vector<int64_t> output_dims(out.begin() + 2, out.end()),
        taps_dims(filter_dims.begin() + 2, filter_dims.end());
    int64_t positions = 1, taps = 1;
    for (int d = 0; d < spatial; ++d) {
        positions *= output_dims[static_cast<size_t>(d)];
        taps *= taps_dims[static_cast<size_t>(d)];
    }
    const std::vector<int64_t> expected = {x.dims[0] * positions, x.dims[1] * taps};
    if (positions < 1 || col.dims != expected) {
        return fail(CUDNN_STATUS_BAD_PARAM, "col is %s; im2col of x %s with filter %s needs %s",
                    dims_to_string(col.dims).c_str(), dims_to_string(x.dims).c_str(),
                    dims_to_string(filter_dims).c_str(), dims_to_string(expected).c_str());
    }
    Index x_index(x.rank());
    for (int64_t n = 0; n < x.dims[0]; ++n) {
        int64_t p = 0;
        for_each_index(output_dims, [&](const Index &o) {
            for (int64_t c = 0; c < x.dims[1]; ++c) {
                int64_t t = 0;
                for_each_index(taps_dims, [&](const Index &f) {
                    // input_coordinate flips the tap along every dim for convolution, which is column
                    // T - 1 - t of the flattened window.
                    bool inside = true;
                    for (int d = 0; d < spatial; ++d) {
                        const int64_t i =
                            input_coordinate(conv, d, o[static_cast<size_t>(d)], f[static_cast<size_t>(d)],
                                             taps_dims[static_cast<size_t>(d)]);
                        inside = inside && i >= 0 && i < x.dims[static_cast<size_t>(2 + d)];
                        x_index[static_cast<size_t>(2 + d)] = i;
                    }
                    x_index[0] = n;
                    x_index[1] = c;
                    col.write({n * positions + p, c * taps + t}, inside ? x.read(x_index) : 0.0);
                    ++t;
                });
            }
            ++p;
        });
    }
    return CUDNN_STATUS_SUCCESS;
}

}  // namespace librednn::reference
