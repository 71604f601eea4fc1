// Tensors in problem strings: writing and reading dtype, dims, strides and layout.
#include "ops/common/problem_tensors.hpp"

#include "core/data_type.hpp"

#include <vector>

namespace librednn {

namespace {

std::vector<int64_t> dims_of(const TensorGeometry &tensor) {
    return std::vector<int64_t>(tensor.dims, tensor.dims + tensor.nb_dims);
}

bool same_dims_as(const TensorGeometry &a, const TensorGeometry &b) { return same_dims(a, b); }

constexpr cudnnDataType_t kAllTypes[] = {
    CUDNN_DATA_FLOAT,  CUDNN_DATA_DOUBLE,  CUDNN_DATA_HALF,     CUDNN_DATA_INT8,     CUDNN_DATA_INT32,
    CUDNN_DATA_INT8x4, CUDNN_DATA_UINT8,   CUDNN_DATA_UINT8x4,  CUDNN_DATA_INT8x32,  CUDNN_DATA_BFLOAT16,
    CUDNN_DATA_INT64,  CUDNN_DATA_BOOLEAN, CUDNN_DATA_FP8_E4M3, CUDNN_DATA_FP8_E5M2, CUDNN_DATA_FAST_FLOAT_FOR_FP8};

}  // namespace

bool data_type_from_short_name(const std::string &name, cudnnDataType_t *type) {
    for (cudnnDataType_t candidate : kAllTypes) {
        if (name == data_type_short_name(candidate)) {
            *type = candidate;
            return true;
        }
    }
    return false;
}

bool enum_from_name(const std::string &text, const char *const *names, int count, int *value) {
    for (int i = 0; i < count; ++i) {
        if (names[i] != nullptr && text == names[i]) {
            *value = i;
            return true;
        }
    }
    return false;
}

const char *nan_option_name(cudnnNanPropagation_t option) {
    return option == CUDNN_PROPAGATE_NAN ? "propagate" : "not_propagate";
}

bool read_direction(const ProblemString &in, Direction *direction, std::string *error) {
    std::string text;
    if (!in.get("dir", &text, "fwd", error)) return false;
    if (text != "fwd" && text != "bwd") {
        *error = "dir=" + text + " must be fwd or bwd";
        return false;
    }
    *direction = text == "fwd" ? Direction::forward : Direction::backward;
    return true;
}

bool read_yes_no(const ProblemString &in, const char *key, bool *value, std::string *error) {
    std::string text;
    if (!in.get(key, &text, "no", error)) return false;
    if (text != "yes" && text != "no") {
        *error = std::string(key) + "=" + text + " must be yes or no";
        return false;
    }
    *value = text == "yes";
    return true;
}

bool read_nan_option(const ProblemString &in, cudnnNanPropagation_t *option, std::string *error) {
    std::string text;
    in.get("nan", &text, "not_propagate", error);
    if (text == "propagate") {
        *option = CUDNN_PROPAGATE_NAN;
    } else if (text == "not_propagate") {
        *option = CUDNN_NOT_PROPAGATE_NAN;
    } else {
        *error = "nan=" + text + " must be propagate or not_propagate";
        return false;
    }
    return true;
}

cudnnDataType_t default_compute_type(cudnnDataType_t data_type) {
    return data_type == CUDNN_DATA_DOUBLE ? CUDNN_DATA_DOUBLE : CUDNN_DATA_FLOAT;
}

bool read_compute_type(const ProblemString &in, cudnnDataType_t data_type, cudnnDataType_t *compute,
                       std::string *error) {
    std::string text;
    in.get("compute", &text, "", error);
    if (text.empty()) text = data_type_short_name(default_compute_type(data_type));
    if (!data_type_from_short_name(text, compute)) {
        *error = "compute=" + text + " is not a data type";
        return false;
    }
    return true;
}

void write_main_tensor(ProblemString *out, const TensorGeometry &main) {
    out->set("dtype", data_type_short_name(main.dtype));
    out->set_dims("dims", dims_of(main));
}

void write_tensor(ProblemString *out, const char *name, const TensorGeometry &tensor, const TensorGeometry &main) {
    const std::string prefix(name);
    if (tensor.dtype != main.dtype) out->set(prefix + "type", data_type_short_name(tensor.dtype));
    if (!same_dims_as(tensor, main)) out->set_dims(prefix + "dims", dims_of(tensor));
    out->set_dims(prefix + "strides", std::vector<int64_t>(tensor.strides, tensor.strides + tensor.nb_dims));
}

bool read_main_tensor(const ProblemString &in, TensorGeometry *main, std::string *error) {
    std::string type_name;
    if (!in.get("dtype", &type_name, error)) return false;
    if (!data_type_from_short_name(type_name, &main->dtype)) {
        *error = "dtype=" + type_name + " is not a data type (float, double, half, bfloat16, int8, ...)";
        return false;
    }
    std::vector<int64_t> dims;
    if (!in.get_dims("dims", &dims, error)) return false;
    if (dims.empty() || dims.size() > static_cast<size_t>(kMaxDims)) {
        *error = "dims must hold 1 to 8 values";
        return false;
    }
    main->nb_dims = static_cast<int>(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) main->dims[i] = dims[i];
    return true;
}

bool read_tensor(const ProblemString &in, const char *name, const TensorGeometry &main, TensorGeometry *tensor,
                 std::string *error) {
    const std::string prefix(name);
    TensorGeometry result;
    result.dtype = main.dtype;
    std::string type_name;
    if (in.has(prefix + "type")) {
        in.get(prefix + "type", &type_name, error);
        if (!data_type_from_short_name(type_name, &result.dtype)) {
            *error = prefix + "type=" + type_name + " is not a data type";
            return false;
        }
    }
    std::vector<int64_t> dims(main.dims, main.dims + main.nb_dims);
    if (in.has(prefix + "dims") && !in.get_dims(prefix + "dims", &dims, error)) return false;
    if (dims.empty() || dims.size() > static_cast<size_t>(kMaxDims)) {
        *error = prefix + "dims must hold 1 to 8 values";
        return false;
    }
    result.nb_dims = static_cast<int>(dims.size());
    for (size_t i = 0; i < dims.size(); ++i) result.dims[i] = dims[i];

    if (in.has(prefix + "strides")) {
        std::vector<int64_t> strides;
        if (!in.get_dims(prefix + "strides", &strides, error)) return false;
        if (strides.size() != dims.size()) {
            *error = prefix + "strides has " + std::to_string(strides.size()) + " values for " +
                     std::to_string(dims.size()) + " dims";
            return false;
        }
        for (size_t i = 0; i < strides.size(); ++i) result.strides[i] = strides[i];
    } else {
        std::string layout;
        in.get("layout", &layout, "nchw", error);
        PackedLayout packed = PackedLayout::nchw;
        if (vector_count(result.dtype) > 1) {
            packed = PackedLayout::nchw_vect_c;
        } else if (layout == "nhwc") {
            packed = PackedLayout::nhwc;
        } else if (layout != "nchw") {
            *error = "layout=" + layout + " must be nchw or nhwc";
            return false;
        }
        result = packed_geometry(result.dtype, result.nb_dims, result.dims, packed);
    }
    *tensor = result;
    return true;
}

bool reject_unread_keys(const ProblemString &in, std::string *error) {
    const std::vector<std::string> unread = in.unread_keys();
    if (unread.empty()) return true;
    *error = "unknown key " + unread.front();
    return false;
}

}  // namespace librednn
