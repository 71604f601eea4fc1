// The fault sites of the host backend and of the API (docs/RELIABILITY.md): each armed failure returns
// the status cuDNN documents with a log line naming the cause, leaves the output untouched and the
// handle usable; disarmed, the same call succeeds with the result of a run made before the fault.
#include "faults/fault_test_util.hpp"

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

namespace librednn::test {
namespace {

using fault::Site;

// Four host threads whatever the machine, so that parallel_for starts threads (read once per process).
[[maybe_unused]] const bool kThreadsSet = [] { return setenv("LIBREDNN_HOST_THREADS", "4", 1) == 0; }();

cudnnTensorDescriptor_t tensor4d(int n, int c, int h, int w) {
    cudnnTensorDescriptor_t desc = nullptr;
    EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w), CUDNN_STATUS_SUCCESS);
    return desc;
}

std::vector<float> ramp(size_t count) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(static_cast<int>(i * 37 % 23) - 11) / 8.0f;
    return values;
}

TEST(FaultInjection, ArmedSiteFailsTheNextHitsAfterTheSkippedOnes) {
    ArmedFault armed(Site::thread_start, 2, 1);
    EXPECT_FALSE(LIBREDNN_FAULT(thread_start));
    EXPECT_TRUE(LIBREDNN_FAULT(thread_start));
    EXPECT_TRUE(LIBREDNN_FAULT(thread_start));
    EXPECT_FALSE(LIBREDNN_FAULT(thread_start));
    EXPECT_FALSE(LIBREDNN_FAULT(host_allocation));
    EXPECT_EQ(fault::hits(Site::thread_start), 4);
}

TEST(FaultInjection, ConcurrentHitsFailExactlyTheArmedNumber) {
    ArmedFault armed(Site::host_allocation, 1000);
    std::atomic<int> failed{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < 8; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < 500; ++i) failed += LIBREDNN_FAULT(host_allocation) ? 1 : 0;
        });
    }
    for (std::thread &thread : threads) thread.join();
    EXPECT_EQ(failed.load(), 1000);
    EXPECT_EQ(fault::hits(Site::host_allocation), 4000);
}

TEST(FaultsHost, CreateOutOfHostMemoryReturnsAllocFailedAndTheNextCreateWorks) {
    setenv("LIBREDNN_BACKEND", "host", 1);
    cudnnHandle_t handle = nullptr;
    {
        ArmedFault armed(Site::host_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, cudnnCreate(&handle), "cudnnCreate", "out of host memory");
        EXPECT_EQ(handle, nullptr);
    }
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}

// LRN forward on the host: its per-thread scratch is the allocation that fails.
struct LrnCase {
    cudnnTensorDescriptor_t desc = tensor4d(2, 8, 5, 7);
    cudnnLRNDescriptor_t lrn = nullptr;
    std::vector<float> x = ramp(2 * 8 * 5 * 7);
    LrnCase() {
        EXPECT_EQ(cudnnCreateLRNDescriptor(&lrn), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetLRNDescriptor(lrn, 5, 1e-3, 0.75, 2.0), CUDNN_STATUS_SUCCESS);
    }
    ~LrnCase() {
        cudnnDestroyLRNDescriptor(lrn);
        cudnnDestroyTensorDescriptor(desc);
    }
    cudnnStatus_t run(cudnnHandle_t handle, std::vector<float> *y) const {
        const float alpha = 1.0f, beta = 0.0f;
        return cudnnLRNCrossChannelForward(handle, lrn, CUDNN_LRN_CROSS_CHANNEL_DIM1, &alpha, desc, x.data(), &beta,
                                           desc, y->data());
    }
};

TEST(FaultsHost, LrnScratchOutOfMemoryReturnsAllocFailedLeavesYAndTheHandleUsable) {
    Handle handle("host");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    LrnCase lrn;
    std::vector<float> expected(lrn.x.size(), 0.0f);
    ASSERT_EQ(lrn.run(handle, &expected), CUDNN_STATUS_SUCCESS);
    std::vector<float> y(lrn.x.size(), 42.0f);
    {
        ArmedFault armed(Site::host_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, lrn.run(handle, &y), "cudnnLRNCrossChannelForward",
                        "out of host memory");
        EXPECT_EQ(fault::hits(Site::host_allocation), 1);
    }
    EXPECT_EQ(y, std::vector<float>(lrn.x.size(), 42.0f)) << "y changed by a failed call";
    ASSERT_EQ(lrn.run(handle, &y), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(y, expected);
}

TEST(FaultsHost, ThreadsThatCannotStartLeaveTheWorkToTheCallingThread) {
    Handle handle("host");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    LrnCase lrn;
    std::vector<float> expected(lrn.x.size(), 0.0f);
    ASSERT_EQ(lrn.run(handle, &expected), CUDNN_STATUS_SUCCESS);
    std::vector<float> y(lrn.x.size(), 42.0f);
    for (int skip = 0; skip < 3; ++skip) {  // no thread, one, two of the three
        ArmedFault armed(Site::thread_start, 100, skip);
        ASSERT_EQ(lrn.run(handle, &y), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(fault::hits(Site::thread_start), skip + 1) << "LIBREDNN_HOST_THREADS=4: three threads to start";
        EXPECT_EQ(y, expected) << "skip " << skip;
    }
}

TEST(FaultsHost, PoolingBackwardOutOfMemoryReturnsAllocFailedAndLeavesDx) {
    Handle handle("host");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    cudnnTensorDescriptor_t x_desc = tensor4d(2, 3, 6, 6), y_desc = tensor4d(2, 3, 3, 3);
    cudnnPoolingDescriptor_t pool = nullptr;
    ASSERT_EQ(cudnnCreatePoolingDescriptor(&pool), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2),
              CUDNN_STATUS_SUCCESS);
    const std::vector<float> x = ramp(2 * 3 * 6 * 6), dy = ramp(2 * 3 * 3 * 3);
    std::vector<float> y(dy.size()), expected(x.size(), 0.0f), dx(x.size(), 42.0f);
    const float alpha = 1.0f, beta = 0.0f;
    ASSERT_EQ(cudnnPoolingForward(handle, pool, &alpha, x_desc, x.data(), &beta, y_desc, y.data()),
              CUDNN_STATUS_SUCCESS);
    auto backward = [&](std::vector<float> *out) {
        return cudnnPoolingBackward(handle, pool, &alpha, y_desc, y.data(), y_desc, dy.data(), x_desc, x.data(), &beta,
                                    x_desc, out->data());
    };
    ASSERT_EQ(backward(&expected), CUDNN_STATUS_SUCCESS);
    {
        ArmedFault armed(Site::host_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, backward(&dx), "cudnnPoolingBackward", "out of host memory");
    }
    EXPECT_EQ(dx, std::vector<float>(x.size(), 42.0f)) << "dx changed by a failed call";
    ASSERT_EQ(backward(&dx), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx, expected);
    cudnnDestroyPoolingDescriptor(pool);
    cudnnDestroyTensorDescriptor(x_desc);
    cudnnDestroyTensorDescriptor(y_desc);
}

TEST(FaultsHost, FindConvolutionWithoutMemoryForItsBuffersReturnsAllocFailed) {
    Handle handle("host");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    cudnnTensorDescriptor_t x = tensor4d(1, 2, 6, 6), y = tensor4d(1, 4, 4, 4);
    cudnnFilterDescriptor_t w = nullptr;
    cudnnConvolutionDescriptor_t conv = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&w), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 4, 2, 3, 3), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnCreateConvolutionDescriptor(&conv), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetConvolution2dDescriptor(conv, 0, 0, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT),
              CUDNN_STATUS_SUCCESS);
    cudnnConvolutionFwdAlgoPerf_t results[8];
    int returned = -1;
    {
        ArmedFault armed(Site::host_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED,
                        cudnnFindConvolutionForwardAlgorithm(handle, x, w, conv, y, 8, &returned, results),
                        "cudnnFindConvolutionForwardAlgorithm", "could not allocate");
    }
    EXPECT_EQ(cudnnFindConvolutionForwardAlgorithm(handle, x, w, conv, y, 8, &returned, results), CUDNN_STATUS_SUCCESS);
    EXPECT_GT(returned, 0);
    EXPECT_EQ(results[0].status, CUDNN_STATUS_SUCCESS);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyTensorDescriptor(x);
    cudnnDestroyTensorDescriptor(y);
}

TEST(FaultsHost, DestroyAfterAFailedCallWithInfoLoggingIsSafe) {
    LogCapture capture(CUDNN_SEV_ERROR_EN | CUDNN_SEV_WARNING_EN | CUDNN_SEV_INFO_EN);
    setenv("LIBREDNN_BACKEND", "host", 1);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    LrnCase lrn;
    std::vector<float> y(lrn.x.size());
    {
        ArmedFault armed(Site::host_allocation);
        EXPECT_EQ(lrn.run(handle, &y), CUDNN_STATUS_ALLOC_FAILED);
    }
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
    EXPECT_TRUE(capture.contains({"cudnnDestroy", "returned: CUDNN_STATUS_SUCCESS"})) << capture.all();
}

}  // namespace
}  // namespace librednn::test
