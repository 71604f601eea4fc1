// Host convolution, BWD_FILTER_ALGO_WINOGRAD_NONFUSED: (A dy A^T)(B^T x B) over the tiles, then G^T M G.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_filter_winograd_nonfused_solver() {
    static const host::conv::HostWinogradConvSolver solver(
        "host_conv_bwd_filter_winograd_nonfused", SolverId::host_conv_bwd_filter_winograd_nonfused,
        ConvDirection::backward_filter, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED, WinogradVariant::nonfused);
    return solver;
}

}  // namespace librednn
