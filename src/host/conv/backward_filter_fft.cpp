// Host convolution backward filter, FFT: conj(FFT(dy)) x FFT(x) summed over the images, one inverse per filter.
#include "host/conv/fft_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_filter_fft_solver() {
    static const host::conv::HostFftConvSolver solver("host_conv_bwd_filter_fft", SolverId::host_conv_bwd_filter_fft,
                                                      ConvDirection::backward_filter,
                                                      CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT, FftKind::whole);
    return solver;
}

}  // namespace librednn
