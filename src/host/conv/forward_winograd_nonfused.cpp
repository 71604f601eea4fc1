// Host convolution, FWD_ALGO_WINOGRAD_NONFUSED: F(4x4, 3x3) or F(2x2, 5x5), a pass per transform.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

const ConvSolver &host_conv_fwd_winograd_nonfused_solver() {
    static const host::conv::HostWinogradConvSolver solver(
        "host_conv_fwd_winograd_nonfused", SolverId::host_conv_fwd_winograd_nonfused, ConvDirection::forward,
        CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD_NONFUSED, WinogradVariant::nonfused);
    return solver;
}

}  // namespace librednn
