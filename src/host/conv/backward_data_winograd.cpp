// Host convolution, BWD_DATA_ALGO_WINOGRAD: fused F(2x2, 3x3) of dy with the rotated, transposed filter.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_data_winograd_solver() {
    static const host::conv::HostWinogradConvSolver solver(
        "host_conv_bwd_data_winograd", SolverId::host_conv_bwd_data_winograd, ConvDirection::backward_data,
        CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD, WinogradVariant::fused);
    return solver;
}

}  // namespace librednn
