// The host's convolution solvers, per direction in the order Get...Algorithm_v7 ranks them: oneDNN's first
// (where it loads and takes the problem), then LibreDNN's own.
#include "host/conv/solvers.hpp"

#include "ops/common/registry.hpp"

namespace librednn {

Applicability require_direction(const ConvProblem &problem, ConvDirection direction) {
    if (problem.direction == direction) return Applicability::yes();
    return Applicability::no_format("solves %s convolutions, not %s", conv_direction_name(direction),
                                    conv_direction_name(problem.direction));
}

void register_host_conv_solvers(SolverRegistry &registry) {
    registry.conv_forward.push_back(&host_conv_fwd_onednn_solver());
    registry.conv_forward.push_back(&host_conv_fwd_implicit_precomp_gemm_solver());
    registry.conv_forward.push_back(&host_conv_fwd_implicit_gemm_solver());
    registry.conv_forward.push_back(&host_conv_fwd_gemm_solver());
    registry.conv_forward.push_back(&host_conv_fwd_winograd_nonfused_solver());
    registry.conv_forward.push_back(&host_conv_fwd_winograd_solver());
    registry.conv_forward.push_back(&host_conv_fwd_fft_tiling_solver());
    registry.conv_forward.push_back(&host_conv_fwd_fft_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_onednn_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_algo_1_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_algo_0_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_winograd_nonfused_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_winograd_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_fft_tiling_solver());
    registry.conv_backward_data.push_back(&host_conv_bwd_data_fft_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_onednn_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_algo_1_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_algo_3_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_algo_0_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_winograd_nonfused_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_fft_tiling_solver());
    registry.conv_backward_filter.push_back(&host_conv_bwd_filter_fft_solver());
    registry.im2col.push_back(&host_conv_im2col_solver());
}

}  // namespace librednn
