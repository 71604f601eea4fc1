// cudnnSpatialTfGridGeneratorBackward (dtheta = dgrid summed against the output's normalised
// coordinates) and cudnnSpatialTfSamplerBackward (dx = alpha * dy scattered back along the bilinear
// weights + beta * dx; dgrid = alphaDgrid * (d sample / d grid . dy, summed over the channels) +
// betaDgrid * dgrid).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/spatial_tf_problem.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnSpatialTfGridGeneratorBackward(cudnnHandle_t handle,
                                                              const cudnnSpatialTransformerDescriptor_t stDesc,
                                                              const void *dgrid, void *dtheta) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("stDesc", stDesc).arg("dgrid", dgrid).arg("dtheta", dtheta);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::SpatialTfProblem problem;
        LIBREDNN_CHECK(librednn::api::spatial_tf_problem_of(librednn::SpatialTfStage::grid,
                                                            librednn::Direction::backward, stDesc, nullptr, nullptr,
                                                            nullptr, nullptr, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(dgrid);
        LIBREDNN_REQUIRE_NOT_NULL(dtheta);
        if (dtheta == dgrid)
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "dtheta is dgrid's memory: not in place");
        librednn::SpatialTfBuffers buffers;
        buffers.dgrid = dgrid;
        buffers.dtheta = dtheta;
        return librednn::api::run_spatial_tf(*handle, problem, buffers);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSpatialTfSamplerBackward(cudnnHandle_t handle,
                                                        cudnnSpatialTransformerDescriptor_t stDesc, const void *alpha,
                                                        const cudnnTensorDescriptor_t xDesc, const void *x,
                                                        const void *beta, const cudnnTensorDescriptor_t dxDesc,
                                                        void *dx, const void *alphaDgrid,
                                                        const cudnnTensorDescriptor_t dyDesc, const void *dy,
                                                        const void *grid, const void *betaDgrid, void *dgrid) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("stDesc", stDesc).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x);
        call.arg("beta", beta).arg("dxDesc", dxDesc).arg("dx", dx).arg("alphaDgrid", alphaDgrid);
        call.arg("dyDesc", dyDesc).arg("dy", dy).arg("grid", grid).arg("betaDgrid", betaDgrid).arg("dgrid", dgrid);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::SpatialTfProblem problem;
        LIBREDNN_CHECK(librednn::api::spatial_tf_problem_of(librednn::SpatialTfStage::sampler,
                                                            librednn::Direction::backward, stDesc, xDesc, nullptr,
                                                            dxDesc, dyDesc, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(alphaDgrid);
        LIBREDNN_REQUIRE_NOT_NULL(betaDgrid);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(dx);
        LIBREDNN_REQUIRE_NOT_NULL(dy);
        LIBREDNN_REQUIRE_NOT_NULL(grid);
        LIBREDNN_REQUIRE_NOT_NULL(dgrid);
        for (const void *input : {x, dy, grid}) {
            if (dx == input || dgrid == input) {
                return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED,
                                      "%s is the memory of %s: the sampler backward does "
                                      "not work in place",
                                      dx == input ? "dx" : "dgrid",
                                      input == x    ? "x"
                                      : input == dy ? "dy"
                                                    : "grid");
            }
        }
        if (dx == dgrid) return librednn::fail(CUDNN_STATUS_BAD_PARAM, "dx and dgrid are the same memory");
        const bool in_double = problem.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        problem.alpha_dgrid = librednn::read_scaling_factor(alphaDgrid, in_double);
        problem.beta_dgrid = librednn::read_scaling_factor(betaDgrid, in_double);
        librednn::SpatialTfBuffers buffers;
        buffers.x = x;
        buffers.dy = dy;
        buffers.grid = grid;
        buffers.dx = dx;
        buffers.dgrid_out = dgrid;
        return librednn::api::run_spatial_tf(*handle, problem, buffers);
    });
}
