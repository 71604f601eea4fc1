// Host convolution backward filter, FFT_TILING: overlap-add over tiles of dy of a fixed transform size.
#include "host/conv/fft_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_filter_fft_tiling_solver() {
    static const host::conv::HostFftConvSolver solver(
        "host_conv_bwd_filter_fft_tiling", SolverId::host_conv_bwd_filter_fft_tiling, ConvDirection::backward_filter,
        CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT_TILING, FftKind::tiled);
    return solver;
}

}  // namespace librednn
