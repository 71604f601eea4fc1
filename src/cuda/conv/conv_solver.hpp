// The CUDA backend's convolution solvers.
#pragma once

#include "ops/conv/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds the CUDA convolution solvers to the registry, per direction in the order dispatch tries them.
void register_cuda_conv_solvers(SolverRegistry &registry);

}  // namespace librednn
