// Where the library was built for sm_90a and the GPU is of compute capability 9.0 (the H200 the gpu lane runs on),
// the RNN's batch-64 recurrences run on their wgmma kernels: the forward's persistent fused step
// (src/cuda/rnn/rnn_fused_step_wgmma.hpp) and backward data's cluster kernel (src/cuda/rnn/rnn_cluster_backward.hpp)
// take issue 15's shapes, backward weights multiplies half data's gradients from half factors and backward data's W^T
// dG runs from TF32 operands on the tensor memory accelerator's kernel, so that the RNN op tests that reach those
// shapes test what runs there, and a kernel that stopped launching (a shared-memory or residency limit, an image that
// does not load) fails here instead of falling back unseen.
#include "cuda/common/launch_util.hpp"
#include "cuda/rnn/rnn_cluster_backward.hpp"
#include "cuda/rnn/rnn_fused_step_wgmma.hpp"
#include "cuda/rnn/rnn_plan.hpp"
#include "cuda/rnn/rnn_products.hpp"
#include "gpu_test_util.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

namespace {

using namespace librednn;
using namespace librednn::cuda;

TEST(RnnPersistentSteps, ForwardRunsOnWgmmaWhereBuilt) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!gpu_test::sm90a_build_on_sm90_gpu()) GTEST_SKIP() << "not an sm_90a build on a 9.0 GPU";
    if (switched_off("LIBREDNN_RNN_FUSED_STEP_WGMMA")) GTEST_SKIP() << "LIBREDNN_RNN_FUSED_STEP_WGMMA=0";
    for (int gates : {4, 3, 1})
        for (int hidden : {64, 512, 1024}) {
            const char *reason = nullptr;
            EXPECT_TRUE(rnn_fused_steps_wgmma_applies(gates, hidden, &reason))
                << gates << " gates, hidden " << hidden << ": " << reason;
        }
    const char *reason = nullptr;
    EXPECT_FALSE(rnn_fused_steps_wgmma_applies(4, 1000, &reason));  // not a multiple of 64: the mma.sync kernel
    EXPECT_NE(reason, nullptr);
}

TEST(RnnPersistentSteps, BackwardDataRunsInClustersWhereBuilt) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!gpu_test::sm90a_build_on_sm90_gpu()) GTEST_SKIP() << "not an sm_90a build on a 9.0 GPU";
    if (switched_off("LIBREDNN_RNN_CLUSTER_STEP") || switched_off("LIBREDNN_RNN_PERSISTENT"))
        GTEST_SKIP() << "the cluster kernel is switched off";
    for (cudnnRNNMode_t cell : {CUDNN_LSTM, CUDNN_GRU})
        for (int hidden : {512, 1024})
            for (int batch : {17, 64}) {
                RnnProblem p;
                p.net.cell = cell;
                p.net.hidden_size = p.net.proj_size = p.net.input_size = hidden;
                p.net.data_type = p.net.math_prec = CUDNN_DATA_FLOAT;
                p.net.math_type = CUDNN_DEFAULT_MATH;
                p.batch_size = batch;
                p.max_seq_length = 50;
                const char *reason = nullptr;
                EXPECT_TRUE(rnn_cluster_backward_applies(p, rnn_cluster_backward_exchange_elements(p.net), &reason))
                    << (cell == CUDNN_LSTM ? "lstm" : "gru") << " hidden " << hidden << " batch " << batch << ": "
                    << reason;
            }
}

// Issue 15's batch-64 training problem at hidden 1024 (3200 steps), half data.
RnnProblem issue15_h1024_b64(cudnnRNNMode_t cell) {
    RnnProblem p;
    p.net.cell = cell;
    p.net.hidden_size = p.net.proj_size = p.net.input_size = 1024;
    p.net.data_type = CUDNN_DATA_HALF;
    p.net.math_prec = CUDNN_DATA_FLOAT;
    p.net.math_type = CUDNN_TENSOR_OP_MATH;
    p.batch_size = 64;
    p.max_seq_length = 50;
    p.training = true;
    return p;
}

// Half data's weight gradients at issue 15's batch-64 lengths (3200 steps) on half factors; float data's, and half
// data's under FMA math, not.
TEST(RnnPersistentSteps, HalfWeightGradientsRunOnHalfFactorsWhereBuilt) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!gpu_test::sm90a_build_on_sm90_gpu()) GTEST_SKIP() << "not an sm_90a build on a 9.0 GPU";
    if (switched_off("LIBREDNN_RNN_F16_WEIGHTS") || switched_off("LIBREDNN_GEMM_TF32_TMA"))
        GTEST_SKIP() << "half factors are switched off";
    RnnProblem p = issue15_h1024_b64(CUDNN_LSTM);
    EXPECT_TRUE(rnn_f16_weight_products(p));
    p.net.math_type = CUDNN_FMA_MATH;
    EXPECT_FALSE(rnn_f16_weight_products(p));
    p.net.math_type = CUDNN_TENSOR_OP_MATH;
    p.net.data_type = CUDNN_DATA_FLOAT;
    EXPECT_FALSE(rnn_f16_weight_products(p));
}

// Backward data's W^T dG takes TF32 operands on the tensor memory accelerator's kernel for every cell of the batch-64
// rows (the GRU's rounded gate gradients in a workspace piece of their own), not for double data, and not at 50 steps.
TEST(RnnPersistentSteps, InputGradientsRunOnTf32OperandsWhereBuilt) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!gpu_test::sm90a_build_on_sm90_gpu()) GTEST_SKIP() << "not an sm_90a build on a 9.0 GPU";
    if (switched_off("LIBREDNN_RNN_TF32_INPUT_GRADIENT") || switched_off("LIBREDNN_GEMM_TF32_TMA"))
        GTEST_SKIP() << "the TF32 input gradient is switched off";
    RnnProblem p = issue15_h1024_b64(CUDNN_LSTM);
    for (const cudnnRNNMode_t cell : {CUDNN_LSTM, CUDNN_GRU, CUDNN_RNN_TANH}) {
        p.net.cell = cell;
        EXPECT_TRUE(rnn_tf32_input_gradient(p, 1024)) << cell;
        EXPECT_EQ(rnn_cuda_workspace(p).rounded > 0, cell == CUDNN_GRU) << cell;
    }
    p.net.data_type = CUDNN_DATA_FLOAT;
    EXPECT_TRUE(rnn_tf32_input_gradient(p, 1024));
    p.net.data_type = p.net.math_prec = CUDNN_DATA_DOUBLE;
    EXPECT_FALSE(rnn_tf32_input_gradient(p, 1024));
    p.net.data_type = CUDNN_DATA_FLOAT, p.net.math_prec = CUDNN_DATA_FLOAT;
    p.batch_size = 1;
    EXPECT_FALSE(rnn_tf32_input_gradient(p, 1024));
    EXPECT_EQ(rnn_cuda_workspace(p).rounded, 0);
}

}  // namespace
