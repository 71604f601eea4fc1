// Convolution problems: sizes, comparison and the problem string both ways. The string is
// librednn-bench's `op=conv` grammar (docs/PROBLEMS.md) for the packed 2-d problems it runs, with
// extra keys for what it does not yet take (3-d and Nd sizes, strided tensors, a filter format other
// than the tensors' layout, the fused forward).
#include "ops/conv/problem.hpp"

#include "ops/common/problem_tensors.hpp"

#include <vector>

namespace librednn {

namespace {

const char *const kMathNames[] = {"default", "tensor_op", "tensor_op_allow_conversion", "fma"};
const char *const kActivationNames[] = {"sigmoid", "relu", "tanh", "clipped_relu", "elu", "identity", "swish"};

// Letters of the spatial sizes in the bench's grammar: input h w (d h w), filter r s (t r s).
const char *const kInputLetters3[] = {"d", "h", "w"};
const char *const kFilterLetters3[] = {"t", "r", "s"};

const char *layout_name(cudnnTensorFormat_t format) {
    return format == CUDNN_TENSOR_NHWC ? "nhwc" : format == CUDNN_TENSOR_NCHW_VECT_C ? "nchw_vect_c" : "nchw";
}

PackedLayout packed_layout_of(cudnnTensorFormat_t format) {
    return format == CUDNN_TENSOR_NHWC          ? PackedLayout::nhwc
           : format == CUDNN_TENSOR_NCHW_VECT_C ? PackedLayout::nchw_vect_c
                                                : PackedLayout::nchw;
}

// The layout `geometry` is packed in, when it is one of the three.
bool packed_format_of(const TensorGeometry &geometry, cudnnTensorFormat_t *format) {
    for (cudnnTensorFormat_t f : {CUDNN_TENSOR_NCHW, CUDNN_TENSOR_NHWC, CUDNN_TENSOR_NCHW_VECT_C}) {
        if ((f == CUDNN_TENSOR_NCHW_VECT_C) != (geometry.vector() > 1)) continue;
        if (packed_geometry(geometry.dtype, geometry.nb_dims, geometry.dims, packed_layout_of(f)) == geometry) {
            *format = f;
            return true;
        }
    }
    return false;
}

std::vector<int64_t> strides_of(const TensorGeometry &g) {
    return std::vector<int64_t>(g.strides, g.strides + g.nb_dims);
}

std::vector<int64_t> spatial_values(const int64_t *values, int count) {
    return std::vector<int64_t>(values, values + count);
}

bool read_spatial(const ProblemString &in, const char *key, int count, int64_t fallback, int64_t minimum,
                  int64_t *values, std::string *error) {
    if (!in.has(key)) {
        for (int i = 0; i < count; ++i) values[i] = fallback;
        return true;
    }
    std::vector<int64_t> dims;
    if (!in.get_dims(key, &dims, error)) return false;
    if (static_cast<int>(dims.size()) != count) {
        *error = std::string(key) + " has " + std::to_string(dims.size()) + " values, the convolution " +
                 std::to_string(count) + " spatial dims";
        return false;
    }
    for (int i = 0; i < count; ++i) {
        if (dims[static_cast<size_t>(i)] < minimum) {
            *error = std::string(key) + " values must be at least " + std::to_string(minimum);
            return false;
        }
        values[i] = dims[static_cast<size_t>(i)];
    }
    return true;
}

}  // namespace

const char *conv_direction_name(ConvDirection direction) {
    switch (direction) {
        case ConvDirection::forward: return "fwd";
        case ConvDirection::backward_data: return "bwd_data";
        case ConvDirection::backward_filter: return "bwd_filter";
    }
    return "?";
}

const TensorGeometry &ConvProblem::result() const {
    return direction == ConvDirection::forward ? y : direction == ConvDirection::backward_data ? x : w;
}

int64_t ConvProblem::input_size() const {
    int64_t size = 1;
    for (int i = 0; i < spatial_dims; ++i) size *= input_extent(i);
    return size;
}

int64_t ConvProblem::filter_size() const {
    int64_t size = 1;
    for (int i = 0; i < spatial_dims; ++i) size *= filter_extent(i);
    return size;
}

int64_t ConvProblem::output_size() const {
    int64_t size = 1;
    for (int i = 0; i < spatial_dims; ++i) size *= output_extent(i);
    return size;
}

double ConvProblem::flops() const {
    return 2.0 * static_cast<double>(batch()) * static_cast<double>(output_channels()) *
           static_cast<double>(channels_per_group()) * static_cast<double>(filter_size()) *
           static_cast<double>(output_size());
}

bool ConvProblem::operator==(const ConvProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

void conv_output_dims(const ConvProblem &problem, const int64_t *x_dims, const int64_t *w_dims, int64_t *out) {
    out[0] = x_dims[0];
    out[1] = w_dims[0];
    for (int i = 0; i < problem.spatial_dims; ++i) {
        const int64_t extent = (w_dims[i + 2] - 1) * problem.dilation[i] + 1;
        const int64_t room = x_dims[i + 2] + 2 * problem.pad[i] - extent;
        out[i + 2] = room < 0 ? 0 : 1 + room / problem.stride[i];
    }
}

ProblemString to_problem_string(const ConvProblem &p) {
    ProblemString out;
    out.set("op", "conv");
    out.set("dir", conv_direction_name(p.direction));
    out.set("dtype", data_type_short_name(p.x.dtype));
    cudnnTensorFormat_t layout = CUDNN_TENSOR_NCHW;
    const bool x_packed = packed_format_of(p.x, &layout);
    out.set("layout", layout_name(layout));
    const int n = p.spatial_dims;
    if (n == 2 || n == 3) {
        out.set("n", static_cast<long long>(p.x.dims[0]));
        out.set("c", static_cast<long long>(p.x.dims[1]));
        for (int i = 0; i < n; ++i) out.set(kInputLetters3[3 - n + i], static_cast<long long>(p.x.dims[i + 2]));
        out.set("k", static_cast<long long>(p.w.dims[0]));
        for (int i = 0; i < n; ++i) out.set(kFilterLetters3[3 - n + i], static_cast<long long>(p.w.dims[i + 2]));
    } else {
        out.set_dims("dims", std::vector<int64_t>(p.x.dims, p.x.dims + p.x.nb_dims));
        out.set_dims("wdims", std::vector<int64_t>(p.w.dims, p.w.dims + p.w.nb_dims));
    }
    out.set_dims("pad", spatial_values(p.pad, n));
    out.set_dims("stride", spatial_values(p.stride, n));
    out.set_dims("dil", spatial_values(p.dilation, n));
    out.set("g", static_cast<long long>(p.groups));
    out.set("mode", p.mode == CUDNN_CONVOLUTION ? "conv" : "xcorr");
    out.set("compute", data_type_short_name(p.compute_type));
    const int math = static_cast<int>(p.math_type);
    out.set("math", math >= 0 && math < 4 ? kMathNames[math] : std::to_string(math));
    if (p.filter_format != layout) out.set("wlayout", layout_name(p.filter_format));
    if (p.w.dtype != p.x.dtype) out.set("wtype", data_type_short_name(p.w.dtype));
    if (p.y.dtype != p.x.dtype) out.set("ytype", data_type_short_name(p.y.dtype));
    if (p.algorithm >= 0) out.set("algo", p.algorithm);
    if (!x_packed) out.set_dims("xstrides", strides_of(p.x));
    cudnnTensorFormat_t y_layout = CUDNN_TENSOR_NCHW;
    if (!packed_format_of(p.y, &y_layout) || y_layout != layout) out.set_dims("ystrides", strides_of(p.y));
    out.set("alpha", p.alpha);
    out.set("beta", p.beta);
    if (p.epilogue.fused) {
        const int act = static_cast<int>(p.epilogue.activation);
        out.set("fused", "bias_act");
        out.set("act", act >= 0 && act < 7 ? kActivationNames[act] : std::to_string(act));
        if (p.epilogue.activation == CUDNN_ACTIVATION_CLIPPED_RELU || p.epilogue.activation == CUDNN_ACTIVATION_ELU)
            out.set("coef", p.epilogue.coef);
        out.set("alpha2", p.epilogue.alpha2);
        if (p.epilogue.bias.dtype != p.y.dtype) out.set("biastype", data_type_short_name(p.epilogue.bias.dtype));
    }
    return out;
}

bool parse_conv_problem(const ProblemString &text, ConvProblem *problem, std::string *error) {
    ConvProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "conv") {
        *error = "op=" + value + " is not a convolution problem (op=conv)";
        return false;
    }
    text.get("dir", &value, "fwd", error);
    if (value == "fwd") {
        p.direction = ConvDirection::forward;
    } else if (value == "bwd_data") {
        p.direction = ConvDirection::backward_data;
    } else if (value == "bwd_filter") {
        p.direction = ConvDirection::backward_filter;
    } else {
        *error = "dir=" + value + " must be fwd, bwd_data or bwd_filter";
        return false;
    }
    cudnnDataType_t dtype = CUDNN_DATA_FLOAT;
    if (!text.get("dtype", &value, "float", error)) return false;
    if (!data_type_from_short_name(value, &dtype)) {
        *error = "dtype=" + value + " is not a data type";
        return false;
    }
    text.get("layout", &value, "nchw", error);
    cudnnTensorFormat_t layout = CUDNN_TENSOR_NCHW;
    if (value == "nhwc") {
        layout = CUDNN_TENSOR_NHWC;
    } else if (value == "nchw_vect_c") {
        layout = CUDNN_TENSOR_NCHW_VECT_C;
    } else if (value != "nchw") {
        *error = "layout=" + value + " must be nchw, nhwc or nchw_vect_c";
        return false;
    }
    int64_t x_dims[kMaxDims] = {}, w_dims[kMaxDims] = {};
    int nb_dims = 0;
    if (text.has("dims")) {
        std::vector<int64_t> dims, wdims;
        if (!text.get_dims("dims", &dims, error) || !text.get_dims("wdims", &wdims, error)) return false;
        if (dims.size() < 3 || dims.size() > static_cast<size_t>(kMaxDims) || wdims.size() != dims.size()) {
            *error = "dims and wdims need the same number of dims, 3 to 8";
            return false;
        }
        nb_dims = static_cast<int>(dims.size());
        for (int i = 0; i < nb_dims; ++i)
            x_dims[i] = dims[static_cast<size_t>(i)], w_dims[i] = wdims[static_cast<size_t>(i)];
    } else {
        const int spatial = text.has("d") || text.has("t") ? 3 : 2;
        nb_dims = spatial + 2;
        if (!text.get_int("n", &x_dims[0], error) || !text.get_int("c", &x_dims[1], error) ||
            !text.get_int("k", &w_dims[0], error))
            return false;
        for (int i = 0; i < spatial; ++i) {
            if (!text.get_int(kInputLetters3[3 - spatial + i], &x_dims[i + 2], error)) return false;
        }
        for (int i = 0; i < spatial; ++i) {
            const int64_t fallback = i + 1 == spatial ? w_dims[i + 1] : 1;  // s defaults to r (the bench's rule)
            if (!text.get_int(kFilterLetters3[3 - spatial + i], &w_dims[i + 2], i == 0 ? 1 : fallback, error))
                return false;
        }
    }
    p.spatial_dims = nb_dims - 2;
    if (!read_spatial(text, "pad", p.spatial_dims, 0, 0, p.pad, error) ||
        !read_spatial(text, "stride", p.spatial_dims, 1, 1, p.stride, error) ||
        !read_spatial(text, "dil", p.spatial_dims, 1, 1, p.dilation, error))
        return false;
    if (!text.get_int("g", &p.groups, 1, error)) return false;
    if (p.groups < 1 || x_dims[1] % p.groups != 0) {
        *error = "g must divide c";
        return false;
    }
    w_dims[1] = x_dims[1] / p.groups;
    text.get("mode", &value, "xcorr", error);
    if (value != "xcorr" && value != "conv") {
        *error = "mode=" + value + " must be xcorr or conv";
        return false;
    }
    p.mode = value == "conv" ? CUDNN_CONVOLUTION : CUDNN_CROSS_CORRELATION;
    if (!read_compute_type(text, dtype, &p.compute_type, error)) return false;
    int number = 0;
    text.get("math", &value, "default", error);
    if (!enum_from_name(value, kMathNames, 4, &number)) {
        *error = "math=" + value + " must be default, tensor_op, tensor_op_allow_conversion or fma";
        return false;
    }
    p.math_type = static_cast<cudnnMathType_t>(number);
    p.filter_format = layout;
    if (text.has("wlayout")) {
        text.get("wlayout", &value, error);
        p.filter_format = value == "nhwc"          ? CUDNN_TENSOR_NHWC
                          : value == "nchw_vect_c" ? CUDNN_TENSOR_NCHW_VECT_C
                                                   : CUDNN_TENSOR_NCHW;
    }
    cudnnDataType_t w_type = dtype, y_type = dtype;
    for (auto [key, type] : {std::pair<const char *, cudnnDataType_t *>{"wtype", &w_type}, {"ytype", &y_type}}) {
        if (!text.has(key)) continue;
        text.get(key, &value, error);
        if (!data_type_from_short_name(value, type)) {
            *error = std::string(key) + "=" + value + " is not a data type";
            return false;
        }
    }
    int64_t y_dims[kMaxDims] = {};
    conv_output_dims(p, x_dims, w_dims, y_dims);
    for (int i = 2; i < nb_dims; ++i) {
        if (y_dims[i] < 1) {
            *error = "the dilated filter does not fit in the padded input";
            return false;
        }
    }
    const PackedLayout packed = packed_layout_of(layout);
    p.x = packed_geometry(dtype, nb_dims, x_dims, packed);
    p.y = packed_geometry(y_type, nb_dims, y_dims, packed);
    p.w = packed_geometry(w_type, nb_dims, w_dims, packed_layout_of(p.filter_format));
    for (auto [key, geometry] : {std::pair<const char *, TensorGeometry *>{"xstrides", &p.x}, {"ystrides", &p.y}}) {
        if (!text.has(key)) continue;
        std::vector<int64_t> strides;
        if (!text.get_dims(key, &strides, error)) return false;
        if (static_cast<int>(strides.size()) != nb_dims) {
            *error = std::string(key) + " needs " + std::to_string(nb_dims) + " values";
            return false;
        }
        for (int i = 0; i < nb_dims; ++i) geometry->strides[i] = strides[static_cast<size_t>(i)];
    }
    if (text.has("algo")) {
        text.get("algo", &value, error);
        if (value == "heuristic" || value == "find") {
            p.algorithm = -1;
        } else {
            int64_t algorithm = -1;
            if (!text.get_int("algo", &algorithm, error)) return false;
            p.algorithm = static_cast<int>(algorithm);
        }
    }
    if (!text.get_double("alpha", &p.alpha, 1.0, error) || !text.get_double("beta", &p.beta, 0.0, error)) return false;
    if (text.has("fused")) {
        text.get("fused", &value, error);
        if (value != "bias_act") {
            *error = "fused=" + value + " must be bias_act";
            return false;
        }
        p.epilogue.fused = true;
        text.get("act", &value, "identity", error);
        if (!enum_from_name(value, kActivationNames, 7, &number)) {
            *error = "act=" + value + " is not an activation mode";
            return false;
        }
        p.epilogue.activation = static_cast<cudnnActivationMode_t>(number);
        if (!text.get_double("coef", &p.epilogue.coef, 0.0, error) ||
            !text.get_double("alpha2", &p.epilogue.alpha2, 0.0, error))
            return false;
        cudnnDataType_t bias_type = p.y.dtype;
        if (text.has("biastype")) {
            text.get("biastype", &value, error);
            if (!data_type_from_short_name(value, &bias_type)) {
                *error = "biastype=" + value + " is not a data type";
                return false;
            }
        }
        p.epilogue.z = p.y;
        int64_t bias_dims[kMaxDims];
        for (int i = 0; i < nb_dims; ++i) bias_dims[i] = i == 1 ? y_dims[1] : 1;
        p.epilogue.bias = packed_geometry(bias_type, nb_dims, bias_dims, PackedLayout::nchw);
    }
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
