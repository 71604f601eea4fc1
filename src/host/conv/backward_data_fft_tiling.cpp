// Host convolution backward data, FFT_TILING: overlap-save over dx tiles of a fixed transform size.
#include "host/conv/fft_conv.hpp"
#include "host/conv/solvers.hpp"

namespace librednn {

const ConvSolver &host_conv_bwd_data_fft_tiling_solver() {
    static const host::conv::HostFftConvSolver solver(
        "host_conv_bwd_data_fft_tiling", SolverId::host_conv_bwd_data_fft_tiling, ConvDirection::backward_data,
        CUDNN_CONVOLUTION_BWD_DATA_ALGO_FFT_TILING, FftKind::tiled);
    return solver;
}

}  // namespace librednn
