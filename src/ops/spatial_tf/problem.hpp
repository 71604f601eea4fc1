// A spatial transformer problem (cudnnSpatialTfGridGeneratorForward / Backward,
// cudnnSpatialTfSamplerForward / Backward) as a value, with its buffers and its problem string
// ("op=spatial_tf stage=sampler dir=fwd dtype=float dims=2x3x8x8 xdims=2x3x5x7 xstrides=... ystrides=...
// alpha=1 beta=0", which librednn-bench runs).
//
// The descriptor gives the data type of everything and the output dims N, C, H, W. theta is N x 2 x 3
// and the grid N x H x W x 2, both packed; the sampler reads x [N, C, Hin, Win] and writes y
// [N, C, H, W] (backward: x, dy -> dx, dgrid), any strides. src/reference/spatial_transformer.hpp has
// the formulas.
#pragma once

#include "core/status.hpp"
#include "ops/common/direction.hpp"
#include "ops/common/tensor_geometry.hpp"
#include "problem/problem_string.hpp"

#include <cudnn.h>

#include <string>

namespace librednn {

// The two stages of a spatial transformer: the affine grid generator and the bilinear sampler.
enum class SpatialTfStage { grid, sampler };

// "grid" / "sampler", as problem strings spell them.
const char *spatial_tf_stage_name(SpatialTfStage stage);

struct SpatialTfProblem {
    SpatialTfStage stage = SpatialTfStage::sampler;
    Direction direction = Direction::forward;
    cudnnDataType_t dtype = CUDNN_DATA_FLOAT;  // the descriptor's data type: theta, grid, x, y, ...
    int64_t n = 1, c = 1, h = 1, w = 1;        // the descriptor's dims: the output y (dy)
    // The sampler's tensors: x and dx [N, C, Hin, Win], y and dy [N, C, H, W]. Forward: y = alpha *
    // sample + beta * y. Backward: dx = alpha * scatter + beta * dx, dgrid = alpha_dgrid * gradient +
    // beta_dgrid * dgrid.
    TensorGeometry x, y, dx, dy;
    double alpha = 1.0, beta = 0.0, alpha_dgrid = 1.0, beta_dgrid = 0.0;

    // The descriptor's output dims as a packed NCHW tensor (the problem string's main tensor).
    TensorGeometry output() const;
    // theta, packed N x 2 x 3, and the grid (dgrid), packed N x H x W x 2, of the descriptor's type.
    TensorGeometry theta() const;
    TensorGeometry grid() const;
    bool operator==(const SpatialTfProblem &other) const;
};

// What each operation reads and writes:
//   grid forward:     theta -> grid_out
//   grid backward:    dgrid -> dtheta
//   sampler forward:  x, grid -> y (read too when beta != 0)
//   sampler backward: x, grid, dy -> dx, dgrid_out (read too when beta, beta_dgrid != 0)
struct SpatialTfBuffers {
    const void *theta = nullptr;
    const void *dgrid = nullptr;
    const void *x = nullptr;
    const void *grid = nullptr;
    const void *dy = nullptr;
    void *grid_out = nullptr;
    void *dtheta = nullptr;
    void *y = nullptr;
    void *dx = nullptr;
    void *dgrid_out = nullptr;
};

// BAD_PARAM naming the first of the buffers off its alignment (ops/common/buffer_alignment.hpp); dispatch
// asks it before a solver runs.
Status buffer_alignment(const SpatialTfProblem &problem, const SpatialTfBuffers &buffers);

ProblemString to_problem_string(const SpatialTfProblem &problem);
bool parse_spatial_tf_problem(const ProblemString &text, SpatialTfProblem *problem, std::string *error);

}  // namespace librednn
