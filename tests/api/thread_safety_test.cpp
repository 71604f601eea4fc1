// The thread-safety cuDNN documents, on the host backend: distinct handles used concurrently, each by one
// thread at a time; handles and descriptors created and destroyed on any thread; the lazily built state
// (solver registry, logging) initialised by whichever thread comes first. Every thread must get the bits a
// single thread gets. scripts/test.sh runs it in the ASan and the ThreadSanitizer stages (docs/FUZZING.md,
// "Threads"); tests/gpu/cuda_thread_safety_test.cpp is its CUDA twin.
#include "api_test_util.hpp"

#include <cudnn.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <thread>
#include <vector>

namespace {

// An LSTM forward (training mode, so the reserve space is written too) with `handle` on fixed inputs:
// appends y, hy and cy to `out`; false when a call fails.
bool run_lstm(cudnnHandle_t handle, std::vector<float> *out) {
    const int seq = 3, batch = 2, input = 4, hidden = 5;
    std::vector<float> x(seq * batch * input), hx(batch * hidden, 0.25f), cx(batch * hidden, -0.5f);
    std::vector<float> y(seq * batch * hidden), hy(batch * hidden), cy(batch * hidden);
    for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>((i * 7) % 11) / 5.0f - 1.0f;
    const std::vector<int32_t> lengths(batch, seq);
    cudnnDropoutDescriptor_t dropout;
    cudnnRNNDescriptor_t rnn;
    cudnnRNNDataDescriptor_t x_desc, y_desc;
    cudnnTensorDescriptor_t state_desc;
    cudnnCreateDropoutDescriptor(&dropout);
    cudnnCreateRNNDescriptor(&rnn);
    cudnnCreateRNNDataDescriptor(&x_desc);
    cudnnCreateRNNDataDescriptor(&y_desc);
    cudnnCreateTensorDescriptor(&state_desc);
    const int state_dims[3] = {1, batch, hidden}, state_strides[3] = {batch * hidden, hidden, 1};
    size_t state_bytes = 0, weight_bytes = 0, work_bytes = 0, reserve_bytes = 0;
    bool ok = cudnnDropoutGetStatesSize(handle, &state_bytes) == 0;
    std::vector<unsigned char> states(state_bytes + 1);
    ok = ok && cudnnSetDropoutDescriptor(dropout, handle, 0.0f, states.data(), state_bytes, 7) == 0 &&
         cudnnSetRNNDescriptor_v8(rnn, CUDNN_RNN_ALGO_STANDARD, CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS, CUDNN_UNIDIRECTIONAL,
                                  CUDNN_LINEAR_INPUT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT, CUDNN_DEFAULT_MATH, input,
                                  hidden, hidden, 1, dropout, CUDNN_RNN_PADDED_IO_ENABLED) == 0 &&
         cudnnSetRNNDataDescriptor(x_desc, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, seq, batch,
                                   input, lengths.data(), nullptr) == 0 &&
         cudnnSetRNNDataDescriptor(y_desc, CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED, seq, batch,
                                   hidden, lengths.data(), nullptr) == 0 &&
         cudnnSetTensorNdDescriptor(state_desc, CUDNN_DATA_FLOAT, 3, state_dims, state_strides) == 0 &&
         cudnnGetRNNWeightSpaceSize(handle, rnn, &weight_bytes) == 0 &&
         cudnnGetRNNTempSpaceSizes(handle, rnn, CUDNN_FWD_MODE_TRAINING, x_desc, &work_bytes, &reserve_bytes) == 0;
    std::vector<float> weights(weight_bytes / sizeof(float));
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<float>((i * 5) % 17) / 40.0f - 0.2f;
    std::vector<unsigned char> work(work_bytes + 1), reserve(reserve_bytes + 1);
    ok = ok && cudnnRNNForward(handle, rnn, CUDNN_FWD_MODE_TRAINING, lengths.data(), x_desc, x.data(), y_desc, y.data(),
                               state_desc, hx.data(), hy.data(), state_desc, cx.data(), cy.data(), weight_bytes,
                               weights.data(), work_bytes, work.data(), reserve_bytes, reserve.data()) == 0;
    cudnnDestroyTensorDescriptor(state_desc);
    cudnnDestroyRNNDataDescriptor(y_desc);
    cudnnDestroyRNNDataDescriptor(x_desc);
    cudnnDestroyRNNDescriptor(rnn);
    cudnnDestroyDropoutDescriptor(dropout);
    if (!ok) return false;
    for (const auto *part : {&y, &hy, &cy}) out->insert(out->end(), part->begin(), part->end());
    return true;
}

// Runs convolution, batch-norm training, pooling, LRN, softmax and an LSTM on fixed inputs with `handle`;
// returns every output's bytes one after another, or an empty vector when a call fails.
std::vector<float> run_network(cudnnHandle_t handle) {
    const int n = 2, c = 3, h = 6, w = 6, k = 4;
    std::vector<float> x(n * c * h * w), weights(k * c * 3 * 3), y(n * k * h * w), bn(n * k * h * w);
    std::vector<float> pooled(n * k * 3 * 3), normed(n * k * 3 * 3), soft(n * k * 3 * 3), scale(k, 1.5f),
        bias(k, 0.25f);
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
                                     p_desc, normed.data()) == 0 &&
         cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, p_desc, normed.data(),
                             &zero, p_desc, soft.data()) == 0;
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
    for (const auto *part : {&y, &bn, &pooled, &normed, &soft, &running_mean, &running_var, &saved_mean, &saved_inv})
        all.insert(all.end(), part->begin(), part->end());
    if (!run_lstm(handle, &all)) return {};
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

// In a process where LibreDNN has not run yet (ctest runs each test in a process of its own, and the TSan
// stage of scripts/test.sh runs this one alone too): the threads start together and each creates the
// process's first handles, so that loading the sub-libraries through the shim, building the solver tables
// and the logging state all race; then each runs the network. Every thread must get the bits one thread gets
// afterwards, and ThreadSanitizer (its lock-order checks included) watches the race. The CUDA twin is
// CudaThreads.RacingFirstUseInThisProcessGetsTheSameBits.
TEST(ThreadSafety, ThreadsRacingOnFirstUseGetTheSameBits) {
    HostBackend host;
    constexpr int kThreads = 4;
    std::vector<std::vector<float>> results(kThreads);
    std::vector<int> created(kThreads, 0);
    std::atomic<int> waiting{kThreads};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            waiting.fetch_sub(1);
            while (waiting.load() > 0) std::this_thread::yield();
            cudnnHandle_t mine = nullptr;
            if (cudnnCreate(&mine) != CUDNN_STATUS_SUCCESS) return;
            created[static_cast<size_t>(t)] = 1;
            results[static_cast<size_t>(t)] = run_network(mine);
            cudnnDestroy(mine);
        });
    }
    for (auto &thread : threads) thread.join();
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    const std::vector<float> expected = run_network(handle);
    ASSERT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
    ASSERT_FALSE(expected.empty());
    for (int t = 0; t < kThreads; ++t) {
        EXPECT_EQ(created[static_cast<size_t>(t)], 1) << "thread " << t << ": cudnnCreate failed";
        EXPECT_EQ(results[static_cast<size_t>(t)], expected) << "thread " << t;
    }
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
