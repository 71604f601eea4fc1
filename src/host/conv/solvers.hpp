// The host backend's convolution solvers: one per cuDNN algorithm it implements, each in its own file.
// They share packed_conv.hpp (packing, workspace, the final store) and sums.hpp (the sums).
#pragma once

#include "ops/conv/solvers.hpp"

#include <algorithm>
#include <cstdint>

namespace librednn {

struct SolverRegistry;

// Adds the host's convolution solvers to the registry, per direction in the order dispatch tries them.
void register_host_conv_solvers(SolverRegistry &registry);

const ConvSolver &host_conv_fwd_implicit_gemm_solver();             // IMPLICIT_GEMM
const ConvSolver &host_conv_fwd_implicit_precomp_gemm_solver();     // IMPLICIT_PRECOMP_GEMM
const ConvSolver &host_conv_fwd_gemm_solver();                      // GEMM
const ConvSolver &host_conv_bwd_data_algo_0_solver();               // BWD_DATA_ALGO_0
const ConvSolver &host_conv_bwd_data_algo_1_solver();               // BWD_DATA_ALGO_1
const ConvSolver &host_conv_bwd_filter_algo_0_solver();             // BWD_FILTER_ALGO_0
const ConvSolver &host_conv_bwd_filter_algo_1_solver();             // BWD_FILTER_ALGO_1
const ConvSolver &host_conv_bwd_filter_algo_3_solver();             // BWD_FILTER_ALGO_3
const ConvSolver &host_conv_fwd_winograd_solver();                  // WINOGRAD
const ConvSolver &host_conv_fwd_winograd_nonfused_solver();         // WINOGRAD_NONFUSED
const ConvSolver &host_conv_bwd_data_winograd_solver();             // BWD_DATA_ALGO_WINOGRAD
const ConvSolver &host_conv_bwd_data_winograd_nonfused_solver();    // BWD_DATA_ALGO_WINOGRAD_NONFUSED
const ConvSolver &host_conv_bwd_filter_winograd_nonfused_solver();  // BWD_FILTER_ALGO_WINOGRAD_NONFUSED
const ConvSolver &host_conv_fwd_fft_solver();                       // FFT
const ConvSolver &host_conv_fwd_fft_tiling_solver();                // FFT_TILING
const ConvSolver &host_conv_bwd_data_fft_solver();                  // BWD_DATA_ALGO_FFT
const ConvSolver &host_conv_bwd_data_fft_tiling_solver();           // BWD_DATA_ALGO_FFT_TILING
const ConvSolver &host_conv_bwd_filter_fft_solver();                // BWD_FILTER_ALGO_FFT
const ConvSolver &host_conv_bwd_filter_fft_tiling_solver();         // BWD_FILTER_ALGO_FFT_TILING
const Im2ColSolver &host_conv_im2col_solver();                      // cudnnIm2Col
// On oneDNN's direct convolutions, when libdnnl.so.2 loads (onednn_solvers.cpp).
const ConvSolver &host_conv_fwd_onednn_solver();         // IMPLICIT_GEMM
const ConvSolver &host_conv_bwd_data_onednn_solver();    // BWD_DATA_ALGO_1
const ConvSolver &host_conv_bwd_filter_onednn_solver();  // BWD_FILTER_ALGO_1

// Yes when the problem is of `direction` (a solver is registered in its direction's list only; this
// guards direct calls).
Applicability require_direction(const ConvProblem &problem, ConvDirection direction);

}  // namespace librednn
