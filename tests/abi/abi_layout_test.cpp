// Struct layouts and macros of the cuDNN 8.9 ABI that the tables do not hold (x86-64 / LP64).
#include <cudnn.h>
#include <cudnn_backend.h>
#include <gtest/gtest.h>

#include <cstddef>

int librednn_abi_function_count();
int librednn_abi_constant_count();

TEST(Abi, StaticAssertsCoverAllFunctionsAndConstants) {
    // The counts of ../shared/api (cuDNN 8.9): every one has a static_assert in abi_static_asserts.gen.cpp.
    EXPECT_EQ(librednn_abi_function_count(), 264);
    EXPECT_EQ(librednn_abi_constant_count(), 661);
}

TEST(Abi, ConvolutionPerfStructsMatchCudnnLayout) {
    EXPECT_EQ(sizeof(cudnnConvolutionFwdAlgoPerf_t), 48u);
    EXPECT_EQ(offsetof(cudnnConvolutionFwdAlgoPerf_t, status), 4u);
    EXPECT_EQ(offsetof(cudnnConvolutionFwdAlgoPerf_t, time), 8u);
    EXPECT_EQ(offsetof(cudnnConvolutionFwdAlgoPerf_t, memory), 16u);
    EXPECT_EQ(offsetof(cudnnConvolutionFwdAlgoPerf_t, determinism), 24u);
    EXPECT_EQ(offsetof(cudnnConvolutionFwdAlgoPerf_t, mathType), 28u);
    EXPECT_EQ(offsetof(cudnnConvolutionFwdAlgoPerf_t, reserved), 32u);
    EXPECT_EQ(sizeof(cudnnConvolutionBwdDataAlgoPerf_t), 48u);
    EXPECT_EQ(sizeof(cudnnConvolutionBwdFilterAlgoPerf_t), 48u);
}

TEST(Abi, DebugStructMatchesCudnnLayout) {
    EXPECT_EQ(offsetof(cudnnDebug_t, cudnn_version), 0u);
    EXPECT_EQ(offsetof(cudnnDebug_t, cudnnStatus), 4u);
    EXPECT_EQ(offsetof(cudnnDebug_t, time_sec), 8u);
    EXPECT_EQ(offsetof(cudnnDebug_t, time_usec), 12u);
    EXPECT_EQ(offsetof(cudnnDebug_t, time_delta), 16u);
    EXPECT_EQ(offsetof(cudnnDebug_t, handle), 24u);
    EXPECT_EQ(offsetof(cudnnDebug_t, stream), 32u);
    EXPECT_EQ(offsetof(cudnnDebug_t, pid), 40u);
    EXPECT_EQ(offsetof(cudnnDebug_t, tid), 48u);
    EXPECT_EQ(offsetof(cudnnDebug_t, cudaDeviceId), 56u);
    EXPECT_EQ(offsetof(cudnnDebug_t, reserved), 60u);
    EXPECT_EQ(sizeof(cudnnDebug_t), 120u);
}

TEST(Abi, SmallStructsAndMacros) {
    EXPECT_EQ(sizeof(cudnnAlgorithm_t), sizeof(int));
    EXPECT_EQ(sizeof(cudnnFraction_t), 16u);
    EXPECT_EQ(CUDNN_MAJOR, 8);
    EXPECT_EQ(CUDNN_MINOR, 9);
    EXPECT_EQ(CUDNN_PATCHLEVEL, 7);
    EXPECT_EQ(CUDNN_DIM_MAX, 8);
    EXPECT_EQ(CUDNN_LRN_MIN_N, 1);
    EXPECT_EQ(CUDNN_LRN_MAX_N, 16);
    EXPECT_DOUBLE_EQ(CUDNN_LRN_MIN_K, 1e-5);
    EXPECT_DOUBLE_EQ(CUDNN_LRN_MIN_BETA, 0.01);
    EXPECT_DOUBLE_EQ(CUDNN_BN_MIN_EPSILON, 0.0);
    EXPECT_EQ(CUDNN_SEV_ERROR_EN, 1u << 1);
    EXPECT_EQ(CUDNN_SEV_WARNING_EN, 1u << 2);
    EXPECT_EQ(CUDNN_SEV_INFO_EN, 1u << 3);
    EXPECT_EQ(CUDNN_RNN_PADDED_IO_ENABLED, 1u);
    EXPECT_EQ(CUDNN_SEQDATA_DIM_COUNT, 4);
    EXPECT_EQ(CUDNN_ATTN_ENABLE_PROJ_BIASES, 2u);
    EXPECT_EQ(CUDNN_ATTN_WKIND_COUNT, 8);
    EXPECT_EQ(CUDNN_SM_90, 900);
    EXPECT_EQ(CUDNN_MIN_DEVICE_VERSION, 500);
    EXPECT_EQ(CUDNN_OPS_INFER_MAJOR, 8);
    EXPECT_EQ(CUDNN_ADV_TRAIN_MINOR, 9);
}
