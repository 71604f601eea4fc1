// Host convolution forward, FFT_TILING: overlap-save over output tiles of a fixed transform size.
#include "host/conv/fft_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

const ConvSolver &host_conv_fwd_fft_tiling_solver() {
    static const host::conv::HostFftConvSolver solver("host_conv_fwd_fft_tiling", SolverId::host_conv_fwd_fft_tiling,
                                                      ConvDirection::forward, CUDNN_CONVOLUTION_FWD_ALGO_FFT_TILING,
                                                      FftKind::tiled);
    return solver;
}

}  // namespace librednn
