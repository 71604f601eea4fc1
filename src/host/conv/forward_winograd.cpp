// Host convolution, FWD_ALGO_WINOGRAD: F(2x2, 3x3) tile by tile (host/conv/winograd.hpp).
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

const ConvSolver &host_conv_fwd_winograd_solver() {
    static const host::conv::HostWinogradConvSolver solver("host_conv_fwd_winograd", SolverId::host_conv_fwd_winograd,
                                                           ConvDirection::forward, CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD,
                                                           WinogradVariant::fused);
    return solver;
}

}  // namespace librednn
