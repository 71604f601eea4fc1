// Typed key reads with the first error kept, for the op families' parsers.
#include "problems/keys.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace librednn::bench {

namespace {

std::string joined(const std::vector<int64_t> &values) {
    std::string text;
    for (size_t i = 0; i < values.size(); ++i) text += (i ? "x" : "") + std::to_string(values[i]);
    return text;
}

std::vector<int64_t> dims_of(const Shape &shape) { return {shape.n, shape.c, shape.h, shape.w}; }

}  // namespace

std::vector<int64_t> packed_strides(const Shape &shape, Layout layout) {
    if (layout == Layout::nhwc) return {shape.h * shape.w * shape.c, 1, shape.w * shape.c, shape.c};
    return {shape.c * shape.h * shape.w, shape.h * shape.w, shape.w, 1};
}

bool layout_of_strides(const Shape &shape, const std::vector<int64_t> &strides, Layout *layout) {
    if (strides.size() != 4) return false;
    const std::vector<int64_t> dims = dims_of(shape);
    for (const Layout candidate : {Layout::nchw, Layout::nhwc}) {
        const std::vector<int64_t> packed = packed_strides(shape, candidate);
        bool match = true;
        for (size_t i = 0; i < 4; ++i) match = match && (strides[i] == packed[i] || dims[i] == 1);
        if (match) {
            *layout = candidate;
            return true;
        }
    }
    return false;
}

bool broadcasts_to(const Shape &small, const Shape &full) {
    return (small.n == 1 || small.n == full.n) && (small.c == 1 || small.c == full.c) &&
           (small.h == 1 || small.h == full.h) && (small.w == 1 || small.w == full.w);
}

bool same_extents(const Shape &a, const Shape &b) { return a.n == b.n && a.c == b.c && a.h == b.h && a.w == b.w; }

void write_main_tensor(ProblemString *text, const TensorOperand &main) {
    text->set("dtype", data_type_name(main.type));
    text->set_dims("dims", dims_of(main.shape));
}

void write_operand(ProblemString *text, const char *name, const TensorOperand &operand, const TensorOperand &main) {
    const std::string prefix(name);
    if (operand.type != main.type) text->set(prefix + "type", data_type_name(operand.type));
    if (dims_of(operand.shape) != dims_of(main.shape)) text->set_dims(prefix + "dims", dims_of(operand.shape));
    text->set_dims(prefix + "strides", packed_strides(operand.shape, operand.layout));
}

void KeyReader::fail(const std::string &message) {
    if (error_.empty()) error_ = "op=" + op_ + ": " + message;
}

void KeyReader::fail_value(const char *key, const std::string &expected, const std::string &got) {
    fail("key '" + std::string(key) + "' must be " + expected + "; got '" + got + "'");
}

int64_t KeyReader::integer(const char *key, int64_t fallback, int64_t minimum) {
    if (!present(key)) return fallback;
    std::string text, ignored;
    text_.get(key, &text, &ignored);
    char *end = nullptr;
    const long long value = std::strtoll(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || value < minimum) {
        fail_value(key, "an integer >= " + std::to_string(minimum), text);
        return fallback;
    }
    return value;
}

double KeyReader::number(const char *key, double fallback) {
    if (!present(key)) return fallback;
    std::string text, ignored;
    text_.get(key, &text, &ignored);
    char *end = nullptr;
    const double value = std::strtod(text.c_str(), &end);
    if (text.empty() || *end != '\0' || !std::isfinite(value)) {
        fail_value(key, "a number", text);
        return fallback;
    }
    return value;
}

std::string KeyReader::choice(const char *key, const std::vector<std::string> &allowed, const std::string &fallback) {
    std::string value = fallback, ignored;
    if (present(key)) text_.get(key, &value, &ignored);
    std::string list;
    for (const std::string &option : allowed) {
        if (value == option) return value;
        list += (list.empty() ? "" : "|") + option;
    }
    fail_value(key, "one of " + list, value);
    return allowed.front();
}

std::pair<int64_t, int64_t> KeyReader::pair(const char *key, std::pair<int64_t, int64_t> fallback, int64_t minimum) {
    if (!present(key)) return fallback;
    std::vector<int64_t> dims;
    std::string error, text;
    text_.get(key, &text, &error);
    if (!text_.get_dims(key, &dims, &error) || dims.size() != 2 || dims[0] < minimum || dims[1] < minimum) {
        fail_value(key, "HxW with each at least " + std::to_string(minimum) + " (e.g. 3x3)", text);
        return fallback;
    }
    return {dims[0], dims[1]};
}

std::vector<int64_t> KeyReader::integers(const char *key, size_t count, const std::vector<int64_t> &fallback,
                                         int64_t minimum, int64_t maximum, const std::string &what) {
    if (!present(key)) return fallback;
    std::vector<int64_t> values;
    std::string error, text;
    text_.get(key, &text, &error);
    if (!text_.get_dims(key, &values, &error) || values.size() != count ||
        *std::min_element(values.begin(), values.end()) < minimum ||
        *std::max_element(values.begin(), values.end()) > maximum) {
        fail_value(key,
                   std::to_string(count) + " integers joined by x, each from " + std::to_string(minimum) + " to " +
                       std::to_string(maximum) + " (" + what + ")",
                   text);
        return fallback;
    }
    return values;
}

cudnnDataType_t KeyReader::data_type(const char *key, const std::string &fallback) {
    const std::string name = choice(key, {"float", "double", "half", "bfloat16", "int8"}, fallback);
    cudnnDataType_t type = CUDNN_DATA_FLOAT;
    parse_data_type(name, &type);
    return type;
}

Layout KeyReader::layout(const char *key, const std::string &fallback) {
    Layout layout = Layout::nchw;
    parse_layout(choice(key, {"nchw", "nhwc"}, fallback), &layout);
    return layout;
}

Shape KeyReader::shape(int64_t default_n) {
    Shape shape;
    shape.n = integer("n", default_n, 1);
    for (const char *key : {"c", "h", "w"})
        if (!present(key)) fail("missing key '" + std::string(key) + "' (the tensor is n x c x h x w)");
    shape.c = integer("c", 1, 1);
    shape.h = integer("h", 1, 1);
    shape.w = integer("w", 1, 1);
    // cuDNN's 4-d descriptors take int extents and int strides.
    if (shape.elements() > 2147483647LL) fail("the tensor has more than 2^31-1 elements");
    return shape;
}

TensorOperand KeyReader::main_tensor(const ProblemDefaults &defaults) {
    TensorOperand main;
    main.type = data_type("dtype", defaults.dtype);
    if (!present("dims")) {
        main.shape = shape(defaults.n);
        return main;
    }
    for (const char *key : {"n", "c", "h", "w"})
        if (present(key)) fail("give the tensor as dims=NxCxHxW or as n= c= h= w=, not both");
    std::vector<int64_t> dims;
    std::string text, error;
    text_.get("dims", &text, &error);
    if (!text_.get_dims("dims", &dims, &error) || dims.size() != 4 || *std::min_element(dims.begin(), dims.end()) < 1) {
        fail_value("dims", "four extents NxCxHxW, each at least 1 (the bench runs 4-d tensors)", text);
        return main;
    }
    main.shape = Shape{dims[0], dims[1], dims[2], dims[3]};
    if (main.shape.elements() > 2147483647LL) fail("the tensor has more than 2^31-1 elements");
    return main;
}

TensorOperand KeyReader::operand(const char *name, const TensorOperand &main, const std::string &default_layout,
                                 bool own_type, bool own_dims) {
    const std::string prefix(name);
    TensorOperand result = main;
    std::string text, error;
    if (own_type) result.type = data_type((prefix + "type").c_str(), data_type_name(main.type));
    if (own_dims && present((prefix + "dims").c_str())) {
        std::vector<int64_t> dims;
        text_.get(prefix + "dims", &text, &error);
        if (!text_.get_dims(prefix + "dims", &dims, &error) || dims.size() != 4 ||
            *std::min_element(dims.begin(), dims.end()) < 1) {
            fail_value((prefix + "dims").c_str(), "four extents NxCxHxW, each at least 1", text);
            return result;
        }
        result.shape = Shape{dims[0], dims[1], dims[2], dims[3]};
    }
    const std::string strides_key = prefix + "strides";
    if (!present(strides_key.c_str())) {
        result.layout = layout("layout", default_layout);
    } else {
        std::vector<int64_t> strides;
        text_.get(strides_key, &text, &error);
        if (!text_.get_dims(strides_key, &strides, &error) || !layout_of_strides(result.shape, strides, &result.layout))
            fail_value(strides_key.c_str(),
                       "the strides of a packed NCHW (" + joined(packed_strides(result.shape, Layout::nchw)) +
                           ") or NHWC (" + joined(packed_strides(result.shape, Layout::nhwc)) +
                           ") tensor: the bench runs packed tensors only",
                       text);
    }
    // Where both layouts put every element at the same place (c = 1, or h = w = 1), call it NCHW, so
    // that the problem prints one way.
    Layout same_memory = Layout::nchw;
    if (layout_of_strides(result.shape, packed_strides(result.shape, result.layout), &same_memory))
        result.layout = same_memory;
    return result;
}

bool KeyReader::finish(std::string *error) const {
    if (!error_.empty()) {
        *error = error_;
        return false;
    }
    std::string unknown;
    for (const std::string &key : text_.unread_keys())
        if (key != "op") unknown += (unknown.empty() ? "'" : ", '") + key + "'";
    if (!unknown.empty()) {
        *error = "op=" + op_ + ": unknown key " + unknown + " (docs/PROBLEMS.md lists the keys of each op)";
        return false;
    }
    return true;
}

}  // namespace librednn::bench
