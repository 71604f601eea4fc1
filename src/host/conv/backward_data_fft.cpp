// Host convolution backward data, FFT: dy correlated with the reversed filter in one transform per channel.
#include "host/conv/fft_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_data_fft_solver() {
    static const host::conv::HostFftConvSolver solver("host_conv_bwd_data_fft", SolverId::host_conv_bwd_data_fft,
                                                      ConvDirection::backward_data, CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT,
                                                      FftKind::whole);
    return solver;
}

}  // namespace librednn
