// Host convolution, BWD_DATA_ALGO_WINOGRAD_NONFUSED: the nonfused passes on dy and the rotated filter.
#include "host/conv/solvers.hpp"
#include "host/conv/winograd.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_data_winograd_nonfused_solver() {
    static const host::conv::HostWinogradConvSolver solver(
        "host_conv_bwd_data_winograd_nonfused", SolverId::host_conv_bwd_data_winograd_nonfused,
        ConvDirection::backward_data, CUDNN_CONVOLUTION_BWD_DATA_ALGO_WINOGRAD_NONFUSED, WinogradVariant::nonfused);
    return solver;
}

}  // namespace librednn
