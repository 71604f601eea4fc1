// The thread-safety cuDNN documents, on the host backend: distinct handles used concurrently, each by
// one thread at a time; handles and descriptors created and destroyed on any thread; the lazily built
// state (solver registry, logging) initialised by whichever thread comes first. Every thread must get
// the bits a single thread gets. scripts/test.sh's sanitizer stage and a ThreadSanitizer build
// (docs/FUZZING.md, "Threads") run it.
#include "api_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <thread>
#include <vector>

namespace {

// Runs convolution, batch-norm training, pooling and LRN on fixed inputs with `handle`; returns every
// output's bytes one after another, or an empty vector when a call fails.
std::vector<float> run_network(cudnnHandle_t handle) {
    const int n = 2, c = 3, h = 6, w = 6, k = 4;
    std::vector<float> x(n * c * h * w), weights(k * c * 3 * 3), y(n * k * h * w), bn(n * k * h * w);
    std::vector<float> pooled(n * k * 3 * 3), normed(n * k * 3 * 3), scale(k, 1.5f), bias(k, 0.25f);
    std::vector<float> running_mean(k, 0.0f), running_var(k, 1.0f), saved_mean(k), saved_inv(k);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 37) % 17) / 8.0f - 1.0f;
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>((i * 11) % 13) / 13.0f - 0.5f;
    cudnnTensorDescriptor_t x_desc, y_desc, p_desc, bn_desc;
    cudnnFilterDescriptor_t w_desc;
    cudnnConvolutionDescriptor_t conv;
    cudnnPoolingDescriptor_t pool;
    cudnnLRNDescriptor_t lrn;
    cudnnCreateTensorDescriptor(&x_desc);
    cudnnCreateTensorDescriptor(&y_desc);
    cudnnCreateTensorDescriptor(&p_desc);
    cudnnCreateTensorDescriptor(&bn_desc);
    cudnnCreateFilterDescriptor(&w_desc);
    cudnnCreateConvolutionDescriptor(&conv);
    cudnnCreatePoolingDescriptor(&pool);
    cudnnCreateLRNDescriptor(&lrn);
    const float one = 1.0f, zero = 0.0f;
    bool ok = cudnnSetTensor4dDescriptor(x_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w) == 0 &&
              cudnnSetTensor4dDescriptor(y_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, h, w) == 0 &&
              cudnnSetTensor4dDescriptor(p_desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, 3, 3) == 0 &&
              cudnnDeriveBNTensorDescriptor(bn_desc, y_desc, CUDNN_BATCHNORM_SPATIAL) == 0 &&
              cudnnSetFilter4dDescriptor(w_desc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, 3, 3) == 0 &&
              cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT) == 0 &&
              cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2) == 0 &&
              cudnnSetLRNDescriptor(lrn, 3, 1e-2, 0.75, 2.0) == 0;
    size_t workspace_bytes = 0;
    const cudnnConvolutionFwdAlgo_t algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    ok = ok &&
         cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc, w_desc, conv, y_desc, algo, &workspace_bytes) == 0;
    std::vector<unsigned char> workspace(workspace_bytes + 1);
    ok = ok &&
         cudnnConvolutionForward(handle, &one, x_desc, x.data(), w_desc, weights.data(), conv, algo, workspace.data(),
                                 workspace_bytes, &zero, y_desc, y.data()) == 0 &&
         cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, y_desc, y.data(), y_desc,
                                                bn.data(), bn_desc, scale.data(), bias.data(), 0.5, running_mean.data(),
                                                running_var.data(), 1e-5, saved_mean.data(), saved_inv.data()) == 0 &&
         cudnnPoolingForward(handle, pool, &one, y_desc, bn.data(), &zero, p_desc, pooled.data()) == 0 &&
         cudnnLRNCrossChannelForward(handle, lrn, CUDNN_LRN_CROSS_CHANNEL_DIM1, &one, p_desc, pooled.data(), &zero,
                                     p_desc, normed.data()) == 0;
    cudnnDestroyLRNDescriptor(lrn);
    cudnnDestroyPoolingDescriptor(pool);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w_desc);
    cudnnDestroyTensorDescriptor(bn_desc);
    cudnnDestroyTensorDescriptor(p_desc);
    cudnnDestroyTensorDescriptor(y_desc);
    cudnnDestroyTensorDescriptor(x_desc);
    if (!ok) return {};
    std::vector<float> all;
    for (const auto *part : {&y, &bn, &pooled, &normed, &running_mean, &running_var, &saved_mean, &saved_inv})
        all.insert(all.end(), part->begin(), part->end());
    return all;
}

// The host backend for every handle this test creates (read by cudnnCreate; set before any thread).
class HostBackend {
public:
    HostBackend() { setenv("LIBREDNN_BACKEND", "host", 1); }
    ~HostBackend() { unsetenv("LIBREDNN_BACKEND"); }
};

TEST(ThreadSafety, DistinctHandlesOnConcurrentThreadsGiveTheSameBits) {
    HostBackend host;
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    const std::vector<float> expected = run_network(handle);
    ASSERT_FALSE(expected.empty());
    ASSERT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);

    constexpr int kThreads = 4, kRounds = 5;
    std::vector<int> matches(kThreads, 0);
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            for (int round = 0; round < kRounds; ++round) {
                cudnnHandle_t mine = nullptr;
                if (cudnnCreate(&mine) != CUDNN_STATUS_SUCCESS) return;
                if (run_network(mine) == expected) ++matches[static_cast<size_t>(t)];
                cudnnDestroy(mine);
            }
        });
    }
    for (auto &thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(matches[static_cast<size_t>(t)], kRounds) << "thread " << t;
}

TEST(ThreadSafety, AHandleMayBeCreatedUsedAndDestroyedOnDifferentThreads) {
    HostBackend host;
    cudnnHandle_t handle = nullptr;
    std::thread([&] { ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS); }).join();
    ASSERT_NE(handle, nullptr);
    std::vector<float> first, second;
    std::thread([&] { first = run_network(handle); }).join();
    std::thread([&] { second = run_network(handle); }).join();
    EXPECT_FALSE(first.empty());
    EXPECT_EQ(first, second);
    cudnnStatus_t destroyed = CUDNN_STATUS_INTERNAL_ERROR;
    std::thread([&] { destroyed = cudnnDestroy(handle); }).join();
    EXPECT_EQ(destroyed, CUDNN_STATUS_SUCCESS);
}

}  // namespace
