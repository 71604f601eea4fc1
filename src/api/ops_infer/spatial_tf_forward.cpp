// cudnnSpatialTfGridGeneratorForward (grid = theta applied to the output's normalised coordinates) and
// cudnnSpatialTfSamplerForward (y = alpha * bilinear sample of x at the grid + beta * y).
#include "api/entry.hpp"
#include "api/from_descriptors.hpp"
#include "api/spatial_tf_problem.hpp"

using librednn::Status;
using librednn::api::Call;

cudnnStatus_t CUDNNWINAPI cudnnSpatialTfGridGeneratorForward(cudnnHandle_t handle,
                                                             const cudnnSpatialTransformerDescriptor_t stDesc,
                                                             const void *theta, void *grid) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("stDesc", stDesc).arg("theta", theta).arg("grid", grid);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::SpatialTfProblem problem;
        LIBREDNN_CHECK(librednn::api::spatial_tf_problem_of(librednn::SpatialTfStage::grid,
                                                            librednn::Direction::forward, stDesc, nullptr, nullptr,
                                                            nullptr, nullptr, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(theta);
        LIBREDNN_REQUIRE_NOT_NULL(grid);
        if (grid == theta) return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "grid is theta's memory: not in place");
        librednn::SpatialTfBuffers buffers;
        buffers.theta = theta;
        buffers.grid_out = grid;
        return librednn::api::run_spatial_tf(*handle, problem, buffers);
    });
}

cudnnStatus_t CUDNNWINAPI cudnnSpatialTfSamplerForward(cudnnHandle_t handle, cudnnSpatialTransformerDescriptor_t stDesc,
                                                       const void *alpha, const cudnnTensorDescriptor_t xDesc,
                                                       const void *x, const void *grid, const void *beta,
                                                       cudnnTensorDescriptor_t yDesc, void *y) {
    return librednn::api::call(__func__, [&](Call &call) -> Status {
        call.handle(handle).arg("stDesc", stDesc).arg("alpha", alpha).arg("xDesc", xDesc).arg("x", x);
        call.arg("grid", grid).arg("beta", beta).arg("yDesc", yDesc).arg("y", y);
        LIBREDNN_REQUIRE_NOT_NULL(handle);
        librednn::SpatialTfProblem problem;
        LIBREDNN_CHECK(librednn::api::spatial_tf_problem_of(librednn::SpatialTfStage::sampler,
                                                            librednn::Direction::forward, stDesc, xDesc, yDesc, nullptr,
                                                            nullptr, &problem));
        LIBREDNN_REQUIRE_NOT_NULL(alpha);
        LIBREDNN_REQUIRE_NOT_NULL(beta);
        LIBREDNN_REQUIRE_NOT_NULL(x);
        LIBREDNN_REQUIRE_NOT_NULL(grid);
        LIBREDNN_REQUIRE_NOT_NULL(y);
        if (y == x || y == grid) {
            return librednn::fail(CUDNN_STATUS_NOT_SUPPORTED, "y is %s's memory: the sampler does not work in place",
                                  y == x ? "x" : "grid");
        }
        const bool in_double = problem.dtype == CUDNN_DATA_DOUBLE;
        problem.alpha = librednn::read_scaling_factor(alpha, in_double);
        problem.beta = librednn::read_scaling_factor(beta, in_double);
        librednn::SpatialTfBuffers buffers;
        buffers.x = x;
        buffers.grid = grid;
        buffers.y = y;
        return librednn::api::run_spatial_tf(*handle, problem, buffers);
    });
}
