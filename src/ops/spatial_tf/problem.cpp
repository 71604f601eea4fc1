// Spatial transformer problems: their implied tensors, comparison and the problem string both ways.
#include "ops/spatial_tf/problem.hpp"

#include "ops/common/problem_tensors.hpp"

namespace librednn {

const char *spatial_tf_stage_name(SpatialTfStage stage) { return stage == SpatialTfStage::grid ? "grid" : "sampler"; }

TensorGeometry SpatialTfProblem::output() const {
    const int64_t dims[4] = {n, c, h, w};
    return packed_geometry(dtype, 4, dims, PackedLayout::nchw);
}

TensorGeometry SpatialTfProblem::theta() const {
    const int64_t dims[3] = {n, 2, 3};
    return packed_geometry(dtype, 3, dims, PackedLayout::nchw);
}

TensorGeometry SpatialTfProblem::grid() const {
    const int64_t dims[4] = {n, h, w, 2};
    return packed_geometry(dtype, 4, dims, PackedLayout::nchw);
}

bool SpatialTfProblem::operator==(const SpatialTfProblem &other) const {
    return to_problem_string(*this) == to_problem_string(other);
}

ProblemString to_problem_string(const SpatialTfProblem &p) {
    ProblemString out;
    out.set("op", "spatial_tf");
    out.set("stage", spatial_tf_stage_name(p.stage));
    out.set("dir", direction_name(p.direction));
    const TensorGeometry main = p.output();
    write_main_tensor(&out, main);
    if (p.stage == SpatialTfStage::grid) return out;
    write_tensor(&out, "x", p.x, main);
    if (p.direction == Direction::forward) {
        write_tensor(&out, "y", p.y, main);
    } else {
        write_tensor(&out, "dx", p.dx, main);
        write_tensor(&out, "dy", p.dy, main);
    }
    out.set("alpha", p.alpha);
    out.set("beta", p.beta);
    if (p.direction == Direction::backward) {
        out.set("alpha_dgrid", p.alpha_dgrid);
        out.set("beta_dgrid", p.beta_dgrid);
    }
    return out;
}

bool parse_spatial_tf_problem(const ProblemString &text, SpatialTfProblem *problem, std::string *error) {
    SpatialTfProblem p;
    std::string value;
    if (!text.get("op", &value, error)) return false;
    if (value != "spatial_tf") {
        *error = "op=" + value + " is not a spatial transformer problem (op=spatial_tf)";
        return false;
    }
    if (!text.get("stage", &value, error)) return false;
    if (value != "grid" && value != "sampler") {
        *error = "stage=" + value + " must be grid or sampler";
        return false;
    }
    p.stage = value == "grid" ? SpatialTfStage::grid : SpatialTfStage::sampler;
    if (!read_direction(text, &p.direction, error)) return false;
    TensorGeometry main;
    if (!read_main_tensor(text, &main, error)) return false;
    if (main.nb_dims != 4) {
        *error = "dims must be NxCxHxW: a spatial transformer is 4-d";
        return false;
    }
    p.dtype = main.dtype;
    p.n = main.dims[0];
    p.c = main.dims[1];
    p.h = main.dims[2];
    p.w = main.dims[3];
    if (p.stage == SpatialTfStage::sampler) {
        if (!read_tensor(text, "x", main, &p.x, error)) return false;
        if (p.direction == Direction::forward) {
            if (!read_tensor(text, "y", main, &p.y, error)) return false;
        } else {
            if (!read_tensor(text, "dx", p.x, &p.dx, error) || !read_tensor(text, "dy", main, &p.dy, error))
                return false;
        }
        if (!text.get_double("alpha", &p.alpha, 1.0, error) || !text.get_double("beta", &p.beta, 0.0, error))
            return false;
        if (p.direction == Direction::backward && (!text.get_double("alpha_dgrid", &p.alpha_dgrid, 1.0, error) ||
                                                   !text.get_double("beta_dgrid", &p.beta_dgrid, 0.0, error)))
            return false;
    }
    if (!reject_unread_keys(text, error)) return false;
    *problem = p;
    return true;
}

}  // namespace librednn
