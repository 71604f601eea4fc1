// The CUDA backend's convolution solvers.
#pragma once

#include "ops/conv/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds the CUDA convolution solvers to the registry, per direction in the order dispatch tries them.
void register_cuda_conv_solvers(SolverRegistry &registry);

const ConvSolver &cuda_conv_fwd_gemm_solver();  // GEMM (cuda/conv/forward_gemm.cpp)

}  // namespace librednn
