// Every solver's stable identity: the number logs, Find results and caches key on, and the engine
// index the backend (graph) API will expose. Numbers are never reused: a removed solver's number
// stays retired. Host solvers count from 1, CUDA solvers from 1001.
#pragma once

namespace librednn {

enum class SolverId : int {
    // host backend (src/host/)
    host_activation_packed = 1,
    host_activation_strided = 2,
    host_softmax_strided = 3,
    host_add_tensor = 4,
    host_op_tensor = 5,
    host_set_tensor = 6,
    host_reduce_strided = 7,
    host_transform_copy = 8,
    host_transform_reshape = 9,
    host_conv_fwd_implicit_gemm = 10,
    host_conv_fwd_implicit_precomp_gemm = 11,
    host_conv_fwd_gemm = 12,
    host_conv_bwd_data_algo_0 = 13,
    host_conv_bwd_data_algo_1 = 14,
    host_conv_bwd_filter_algo_0 = 15,
    host_conv_bwd_filter_algo_1 = 16,
    host_conv_bwd_filter_algo_3 = 17,
    host_pooling_strided = 18,
    host_batch_norm_strided = 19,
    host_lrn_strided = 20,
    host_dropout_strided = 21,
    host_divnorm_strided = 22,
    host_spatial_tf = 23,
    host_rnn = 30,
    host_ctc_loss_deterministic = 31,
    host_ctc_loss_non_deterministic = 32,
    host_conv_im2col = 33,
    host_conv_fwd_implicit_gemm_onednn = 46,
    host_conv_bwd_data_algo_1_onednn = 47,
    host_conv_bwd_filter_algo_1_onednn = 48,

    // CUDA backend (src/cuda/)
    cuda_activation = 1001,
    cuda_softmax = 1002,
    cuda_add_tensor = 1003,
    cuda_op_tensor = 1004,
    cuda_set_tensor = 1005,
    cuda_reduce = 1006,
    cuda_transform = 1007,
    cuda_conv_fwd_implicit_gemm = 1008,
    cuda_conv_bwd_data_algo_1 = 1009,
    cuda_conv_bwd_filter_algo_1 = 1010,
    cuda_pooling = 1011,
    cuda_batch_norm = 1012,
    cuda_lrn = 1013,
    cuda_dropout = 1014,
    cuda_divnorm = 1015,
    cuda_spatial_tf = 1016,
    cuda_rnn = 1017,
    cuda_ctc_loss_deterministic = 1018,
    cuda_ctc_loss_non_deterministic = 1019,
    cuda_conv_im2col = 1020,
};

// The value of Solver::algorithm() for a solver whose family has no cuDNN algorithm enum.
constexpr int kNoAlgorithm = -1;

}  // namespace librednn
