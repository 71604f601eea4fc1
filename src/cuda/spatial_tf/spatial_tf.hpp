// The spatial transformer on the GPU (the kernels behind cudnnSpatialTfGridGeneratorForward/Backward and
// cudnnSpatialTfSamplerForward/Backward): float, double, half and bfloat16, computed in float (double
// for double); x, y, dx and dy of any strides, theta and the grid packed.
//   grid forward     one thread per grid point;
//   grid backward    one block per image, a fixed tree over its grid points: deterministic;
//   sampler forward  one thread per output element;
//   sampler backward one thread per grid point, walking the channels: dgrid summed in order
//                    (deterministic); dx by atomic adds, in float or double straight into dx (first
//                    scaled by beta), for half and bfloat16 into float scratch (workspace) blended into
//                    dx after. The order of the adds varies from run to run: dx is not deterministic.
// Correct first; not tuned.
#pragma once

#include "core/status.hpp"
#include "ops/spatial_tf/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *spatial_tf_unsupported_reason(const SpatialTfProblem &problem);

// The scratch the problem needs: x's elements in float for a half or bfloat16 sampler backward, else 0.
size_t spatial_tf_workspace_bytes(const SpatialTfProblem &problem);

Status spatial_tf(cudaStream_t stream, const SpatialTfProblem &problem, const SpatialTfBuffers &buffers,
                  void *workspace, size_t workspace_bytes);

}  // namespace librednn::cuda
