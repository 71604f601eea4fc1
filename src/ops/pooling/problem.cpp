// Pooling problems: names, sizes, comparison and the problem string both ways.
#include "ops/pooling/problem.hpp"

#include "ops/common/problem_tensors.hpp"

#include <vector>

namespace librednn {

namespace {

const char *const kModeNames[] = {"max", "avg_incl", "avg_excl", "max_det"};  // indexed by cudnnPoolingMode_t

bool read_spatial(const ProblemString &in, const char *key, int count, const int64_t *fallback, int64_t minimum,
                  int64_t *values, std::string *error) {
    if (!in.has(key)) {
        for (int i = 0; i < count; ++i) values[i] = fallback[i];
        return true;
    }
    std::vector<int64_t> dims;
    if (!in.get_dims(key, &dims, error)) return false;
    if (static_cast<int>(dims.size()) != count) {
        *error = std::string(key) + " needs " + std::to_string(count) + " values, one per spatial dim";
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

const char *pooling_mode_name(cudnnPoolingMode_t mode) {
    const int index = static_cast<int>(mode);
    return index >= 0 && index < 4 ? kModeNames[index] : nullptr;
}

void pooling_output_dims(const PoolingProblem &p, const int64_t *x, int64_t *y) {
    y[0] = x[0];
    y[1] = x[1];
    for (int i = 0; i < p.spatial_dims; ++i) {
        const int64_t room = x[i + 2] + 2 * p.pad[i] - p.window[i];
        y[i + 2] = room < 0 ? 0 : 1 + room / p.stride[i];
    }
}

bool PoolingProblem::operator==(const PoolingProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const PoolingProblem &p) {
    ProblemString out;
    out.set("op", "pool");
    out.set("dir", direction_name(p.direction));
    const char *mode = pooling_mode_name(p.mode);
    out.set("mode", mode ? mode : std::to_string(static_cast<int>(p.mode)));
    out.set("nan", nan_option_name(p.nan_opt));
    write_main_tensor(&out, p.x);
    if (p.direction == Direction::forward) {
        write_tensor(&out, "x", p.x, p.x);
        write_tensor(&out, "y", p.y, p.x);
    } else {
        write_tensor(&out, "y", p.y, p.x);
        write_tensor(&out, "dy", p.dy, p.x);
        write_tensor(&out, "x", p.x, p.x);
        write_tensor(&out, "dx", p.dx, p.x);
    }
    out.set_dims("window", std::vector<int64_t>(p.window, p.window + p.spatial_dims));
    out.set_dims("pad", std::vector<int64_t>(p.pad, p.pad + p.spatial_dims));
    out.set_dims("stride", std::vector<int64_t>(p.stride, p.stride + p.spatial_dims));
    out.set("alpha", p.alpha);
    out.set("beta", p.beta);
    return out;
}

bool parse_pooling_problem(const ProblemString &text, PoolingProblem *problem, std::string *error) {
    PoolingProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "pool") {
        *error = "op=" + value + " is not a pooling problem (op=pool)";
        return false;
    }
    if (!read_direction(text, &p.direction, error)) return false;
    int number = 0;
    text.get("mode", &value, "max", error);
    if (!enum_from_name(value, kModeNames, 4, &number)) {
        *error = "mode=" + value + " must be max, max_det, avg_incl or avg_excl";
        return false;
    }
    p.mode = static_cast<cudnnPoolingMode_t>(number);
    if (!read_nan_option(text, &p.nan_opt, error)) return false;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    p.spatial_dims = main.nb_dims - 2;
    const int64_t two[kMaxPoolingSpatialDims] = {2, 2, 2, 2, 2, 2}, zero[kMaxPoolingSpatialDims] = {};
    if (!read_spatial(text, "window", p.spatial_dims, two, 1, p.window, error) ||
        !read_spatial(text, "pad", p.spatial_dims, zero, 0, p.pad, error) ||
        !read_spatial(text, "stride", p.spatial_dims, p.window, 1, p.stride, error))
        return false;
    int64_t y_dims[kMaxDims];
    pooling_output_dims(p, main.dims, y_dims);
    for (int i = 2; i < main.nb_dims; ++i) {
        if (y_dims[i] < 1) {
            *error = "the window does not fit the padded input: the output would be empty";
            return false;
        }
    }
    TensorGeometry output = main;
    for (int i = 0; i < main.nb_dims; ++i) output.dims[i] = y_dims[i];
    output = packed_geometry(main.dtype, main.nb_dims, y_dims, PackedLayout::nchw);
    if (!read_tensor(text, "x", main, &p.x, error) || !read_tensor(text, "y", output, &p.y, error)) return false;
    if (p.direction == Direction::backward) {
        if (!read_tensor(text, "dy", output, &p.dy, error) || !read_tensor(text, "dx", main, &p.dx, error))
            return false;
    }
    if (!text.get_double("alpha", &p.alpha, 1.0, error) || !text.get_double("beta", &p.beta, 0.0, error)) return false;
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
