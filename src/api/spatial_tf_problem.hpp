// What the four spatial transformer calls share: the problem their descriptors describe, and running it
// (with the scratch memory a CUDA solver may ask for, which cuDNN's calls have no workspace argument for).
#pragma once

#include "core/handle.hpp"
#include "descriptors/spatial_transformer.hpp"
#include "descriptors/tensor.hpp"
#include "ops/spatial_tf/problem.hpp"

namespace librednn::api {

// The problem of `stage` and `direction`, validated (ops/spatial_tf/validate.hpp). The sampler reads x
// and y forward, x, dx and dy backward; the grid generator none.
Status spatial_tf_problem_of(SpatialTfStage stage, Direction direction, const cudnnSpatialTransformerStruct *st,
                             const cudnnTensorStruct *x, const cudnnTensorStruct *y, const cudnnTensorStruct *dx,
                             const cudnnTensorStruct *dy, SpatialTfProblem *problem);

// Dispatches `problem` on the handle's backend and runs it, allocating on the handle's stream the
// workspace the chosen solver needs.
Status run_spatial_tf(const cudnnContext &handle, const SpatialTfProblem &problem, const SpatialTfBuffers &buffers);

}  // namespace librednn::api
