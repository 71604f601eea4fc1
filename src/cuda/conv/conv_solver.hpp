// The CUDA backend's convolution solvers.
#pragma once

#include "ops/conv/solvers.hpp"

namespace librednn {

struct SolverRegistry;

// Adds the CUDA convolution solvers to the registry, per direction in the order dispatch tries them.
void register_cuda_conv_solvers(SolverRegistry &registry);

const ConvSolver &cuda_conv_fwd_gemm_solver();           // GEMM (column_gemm.cpp)
const ConvSolver &cuda_conv_bwd_data_algo_0_solver();    // BWD_DATA_ALGO_0 (backward_data_gemm.cpp)
const ConvSolver &cuda_conv_bwd_filter_algo_0_solver();  // BWD_FILTER_ALGO_0 (column_gemm.cpp)

}  // namespace librednn
