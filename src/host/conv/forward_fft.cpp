// Host convolution forward, FFT: the whole (padded) image in one transform per channel.
#include "host/conv/fft_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

const ConvSolver &host_conv_fwd_fft_solver() {
    static const host::conv::HostFftConvSolver solver("host_conv_fwd_fft", SolverId::host_conv_fwd_fft,
                                                      ConvDirection::forward, CUDNN_CONVOLUTION_FWD_ALGO_FFT,
                                                      FftKind::whole);
    return solver;
}

}  // namespace librednn
