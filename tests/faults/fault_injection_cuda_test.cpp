// The fault sites of the CUDA backend (docs/RELIABILITY.md): device allocations, kernel launches and
// asynchronous copies fail with the status cuDNN documents and the CUDA error in the log, leave the
// handle usable and free what they took; a sticky error fails later calls with EXECUTION_FAILED; a
// handle destroyed with work in flight lets the work finish. Every test skips without a GPU.
#include "faults/fault_test_util.hpp"

#if LIBREDNN_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace librednn::test {
namespace {

using fault::Site;

bool have_device() {
    int count = 0;
    const bool ok = cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
    cudaGetLastError();
    return ok;
}

#define SKIP_WITHOUT_GPU() \
    if (!have_device()) GTEST_SKIP() << "no CUDA device here"

// Device memory holding `values`, freed with the object.
class DeviceBuffer {
public:
    explicit DeviceBuffer(const std::vector<float> &values) : count_(values.size()) {
        EXPECT_EQ(cudaMalloc(&data_, bytes()), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(data_, values.data(), bytes(), cudaMemcpyHostToDevice), cudaSuccess);
    }
    ~DeviceBuffer() { cudaFree(data_); }
    DeviceBuffer(const DeviceBuffer &) = delete;
    DeviceBuffer &operator=(const DeviceBuffer &) = delete;
    void *get() const { return data_; }
    size_t bytes() const { return count_ * sizeof(float); }
    std::vector<float> read() const {
        std::vector<float> values(count_);
        EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        EXPECT_EQ(cudaMemcpy(values.data(), data_, bytes(), cudaMemcpyDeviceToHost), cudaSuccess);
        return values;
    }

private:
    size_t count_;
    void *data_ = nullptr;
};

std::vector<float> ramp(size_t count) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i) values[i] = static_cast<float>(static_cast<int>(i * 37 % 23) - 11) / 8.0f;
    return values;
}

cudnnTensorDescriptor_t tensor4d(cudnnTensorFormat_t format, int n, int c, int h, int w) {
    cudnnTensorDescriptor_t desc = nullptr;
    EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetTensor4dDescriptor(desc, format, CUDNN_DATA_FLOAT, n, c, h, w), CUDNN_STATUS_SUCCESS);
    return desc;
}

// ReLU forward of `x` into `y` on `handle`.
struct Relu {
    cudnnActivationDescriptor_t act = nullptr;
    cudnnTensorDescriptor_t desc;
    explicit Relu(int elements) : desc(tensor4d(CUDNN_TENSOR_NCHW, 1, 1, 1, elements)) {
        EXPECT_EQ(cudnnCreateActivationDescriptor(&act), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0),
                  CUDNN_STATUS_SUCCESS);
    }
    ~Relu() {
        cudnnDestroyActivationDescriptor(act);
        cudnnDestroyTensorDescriptor(desc);
    }
    cudnnStatus_t run(cudnnHandle_t handle, const void *x, void *y) const {
        const float alpha = 1.0f, beta = 0.0f;
        return cudnnActivationForward(handle, act, &alpha, desc, x, &beta, desc, y);
    }
};

// Max pooling backward over packed NHWC float: the kernels that allocate their argmax on the stream.
struct NhwcPooling {
    cudnnTensorDescriptor_t x_desc = tensor4d(CUDNN_TENSOR_NHWC, 2, 8, 8, 8);
    cudnnTensorDescriptor_t y_desc = tensor4d(CUDNN_TENSOR_NHWC, 2, 8, 4, 4);
    cudnnPoolingDescriptor_t pool = nullptr;
    DeviceBuffer x{ramp(2 * 8 * 8 * 8)}, dy{ramp(2 * 8 * 4 * 4)}, y{std::vector<float>(2 * 8 * 4 * 4)};
    NhwcPooling() {
        EXPECT_EQ(cudnnCreatePoolingDescriptor(&pool), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2),
                  CUDNN_STATUS_SUCCESS);
    }
    ~NhwcPooling() {
        cudnnDestroyPoolingDescriptor(pool);
        cudnnDestroyTensorDescriptor(x_desc);
        cudnnDestroyTensorDescriptor(y_desc);
    }
    cudnnStatus_t forward(cudnnHandle_t handle) const {
        const float alpha = 1.0f, beta = 0.0f;
        return cudnnPoolingForward(handle, pool, &alpha, x_desc, x.get(), &beta, y_desc, y.get());
    }
    cudnnStatus_t backward(cudnnHandle_t handle, void *dx) const {
        const float alpha = 1.0f, beta = 0.0f;
        return cudnnPoolingBackward(handle, pool, &alpha, y_desc, y.get(), y_desc, dy.get(), x_desc, x.get(), &beta,
                                    x_desc, dx);
    }
};

TEST(FaultsCuda, CreateWhoseContextCannotStartReturnsNotInitialized) {
    SKIP_WITHOUT_GPU();
    setenv("LIBREDNN_BACKEND", "cuda", 1);
    cudnnHandle_t handle = nullptr;
    {
        ArmedFault armed(Site::device_init);
        EXPECT_REJECTED(CUDNN_STATUS_NOT_INITIALIZED, cudnnCreate(&handle), "cudnnCreate", "initialization error");
        EXPECT_EQ(handle, nullptr);
    }
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}

TEST(FaultsCuda, FailedLaunchReturnsExecutionFailedWithTheCudaErrorAndTheNextCallWorks) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    const std::vector<float> input = ramp(4096);
    DeviceBuffer x(input), y(std::vector<float>(4096, 42.0f));
    Relu relu(4096);
    {
        ArmedFault armed(Site::kernel_launch);
        EXPECT_REJECTED(CUDNN_STATUS_EXECUTION_FAILED, relu.run(handle, x.get(), y.get()), "cudnnActivationForward",
                        "launching the CUDA kernel", "too many resources requested for launch",
                        "cudaErrorLaunchOutOfResources");
        EXPECT_EQ(fault::hits(Site::kernel_launch), 1);
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failed launch left an error behind";
    ASSERT_EQ(relu.run(handle, x.get(), y.get()), CUDNN_STATUS_SUCCESS);
    const std::vector<float> result = y.read();
    for (size_t i = 0; i < input.size(); ++i) ASSERT_EQ(result[i], input[i] > 0 ? input[i] : 0.0f) << i;
}

TEST(FaultsCuda, PoolingArgmaxOutOfDeviceMemoryReturnsAllocFailedAndLeavesDx) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    NhwcPooling pooling;
    ASSERT_EQ(pooling.forward(handle), CUDNN_STATUS_SUCCESS);
    DeviceBuffer expected(std::vector<float>(2 * 8 * 8 * 8)), dx(std::vector<float>(2 * 8 * 8 * 8, 42.0f));
    fault::disarm_all();
    ASSERT_EQ(pooling.backward(handle, expected.get()), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(fault::hits(Site::device_allocation), 1) << "not the NHWC kernels: their applicability changed?";
    {
        ArmedFault armed(Site::device_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, pooling.backward(handle, dx.get()), "cudnnPoolingBackward",
                        "pooling argmax", "out of memory", "cudaErrorMemoryAllocation");
    }
    EXPECT_EQ(dx.read(), std::vector<float>(2 * 8 * 8 * 8, 42.0f)) << "dx changed by a failed call";
    ASSERT_EQ(pooling.backward(handle, dx.get()), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(dx.read(), expected.read());
}

TEST(FaultsCuda, BatchNormTrainingOutOfDeviceMemoryReturnsAllocFailedAndLeavesTheRunningStatistics) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    cudnnTensorDescriptor_t x_desc = tensor4d(CUDNN_TENSOR_NCHW, 4, 8, 8, 8);
    cudnnTensorDescriptor_t p_desc = tensor4d(CUDNN_TENSOR_NCHW, 1, 8, 1, 1);
    DeviceBuffer x(ramp(4 * 8 * 8 * 8)), y(std::vector<float>(4 * 8 * 8 * 8)), y2(std::vector<float>(4 * 8 * 8 * 8));
    DeviceBuffer scale(std::vector<float>(8, 1.5f)), bias(std::vector<float>(8, 0.25f));
    DeviceBuffer mean(std::vector<float>(8, 7.0f)), variance(std::vector<float>(8, 7.0f));
    const float alpha = 1.0f, beta = 0.0f;
    auto run = [&](void *out) {
        return cudnnBatchNormalizationForwardTraining(handle, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta, x_desc, x.get(),
                                                      x_desc, out, p_desc, scale.get(), bias.get(), 1.0, mean.get(),
                                                      variance.get(), 1e-5, nullptr, nullptr);
    };
    {
        ArmedFault armed(Site::device_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, run(y.get()), "cudnnBatchNormalizationForwardTraining",
                        "batch-norm partial statistics", "out of memory");
        ASSERT_EQ(fault::hits(Site::device_allocation), 1) << "not the packed kernels: their applicability changed?";
    }
    EXPECT_EQ(mean.read(), std::vector<float>(8, 7.0f)) << "running mean changed by a failed call";
    ASSERT_EQ(run(y.get()), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(run(y2.get()), CUDNN_STATUS_SUCCESS);  // factor 1: the same statistics again
    EXPECT_EQ(y.read(), y2.read());
    cudnnDestroyTensorDescriptor(x_desc);
    cudnnDestroyTensorDescriptor(p_desc);
}

TEST(FaultsCuda, DropoutStatesCopyFailureReturnsExecutionFailedAndTheNextSetWorks) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    size_t states_bytes = 0;
    ASSERT_EQ(cudnnDropoutGetStatesSize(handle, &states_bytes), CUDNN_STATUS_SUCCESS);
    DeviceBuffer states(std::vector<float>((states_bytes + 3) / 4));
    cudnnDropoutDescriptor_t dropout = nullptr;
    ASSERT_EQ(cudnnCreateDropoutDescriptor(&dropout), CUDNN_STATUS_SUCCESS);
    {
        ArmedFault armed(Site::async_copy);
        EXPECT_REJECTED(CUDNN_STATUS_EXECUTION_FAILED,
                        cudnnSetDropoutDescriptor(dropout, handle, 0.5f, states.get(), states_bytes, 1234),
                        "cudnnSetDropoutDescriptor", "writing the dropout states", "invalid argument");
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess);
    EXPECT_EQ(cudnnSetDropoutDescriptor(dropout, handle, 0.5f, states.get(), states_bytes, 1234), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnDestroyDropoutDescriptor(dropout), CUDNN_STATUS_SUCCESS);
}

TEST(FaultsCuda, FilterReorderCopyFailureReturnsExecutionFailedAndTheNextReorderWorks) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    cudnnFilterDescriptor_t w = nullptr;
    ASSERT_EQ(cudnnCreateFilterDescriptor(&w), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetFilter4dDescriptor(w, CUDNN_DATA_INT8x32, CUDNN_TENSOR_NCHW_VECT_C, 32, 32, 3, 3),
              CUDNN_STATUS_SUCCESS);
    const std::vector<float> filter = ramp(32 * 32 * 3 * 3 / 4);  // 32*32*9 bytes
    DeviceBuffer from(filter), to(std::vector<float>(filter.size()));
    {
        ArmedFault armed(Site::async_copy);
        EXPECT_REJECTED(
            CUDNN_STATUS_EXECUTION_FAILED,
            cudnnReorderFilterAndBias(handle, w, CUDNN_DEFAULT_REORDER, from.get(), to.get(), 0, nullptr, nullptr),
            "cudnnReorderFilterAndBias", "copying the", "invalid argument");
    }
    ASSERT_EQ(cudnnReorderFilterAndBias(handle, w, CUDNN_DEFAULT_REORDER, from.get(), to.get(), 0, nullptr, nullptr),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(to.read(), filter);
    cudnnDestroyFilterDescriptor(w);
}

TEST(FaultsCuda, FindConvolutionWithoutDeviceMemoryForItsBuffersReturnsAllocFailed) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    cudnnTensorDescriptor_t x = tensor4d(CUDNN_TENSOR_NCHW, 1, 2, 6, 6), y = tensor4d(CUDNN_TENSOR_NCHW, 1, 4, 4, 4);
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
        ArmedFault armed(Site::device_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED,
                        cudnnFindConvolutionForwardAlgorithm(handle, x, w, conv, y, 8, &returned, results),
                        "cudnnFindConvolutionForwardAlgorithm", "could not allocate");
    }
    EXPECT_EQ(cudnnFindConvolutionForwardAlgorithm(handle, x, w, conv, y, 8, &returned, results), CUDNN_STATUS_SUCCESS);
    EXPECT_GT(returned, 0);
    cudnnDestroyConvolutionDescriptor(conv);
    cudnnDestroyFilterDescriptor(w);
    cudnnDestroyTensorDescriptor(x);
    cudnnDestroyTensorDescriptor(y);
}

TEST(FaultsCuda, DestroyWithWorkInFlightLetsTheWorkFinish) {
    SKIP_WITHOUT_GPU();
    setenv("LIBREDNN_BACKEND", "cuda", 1);
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    constexpr int kElements = 1 << 24;
    const std::vector<float> input = ramp(kElements);
    DeviceBuffer x(input), y{std::vector<float>(kElements)};
    NhwcPooling pooling;
    DeviceBuffer dx(std::vector<float>(2 * 8 * 8 * 8, 42.0f)), expected(std::vector<float>(2 * 8 * 8 * 8));
    {
        Handle reference("cuda");
        ASSERT_EQ(pooling.forward(reference), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(pooling.backward(reference, expected.get()), CUDNN_STATUS_SUCCESS);
    }
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetStream(handle, stream), CUDNN_STATUS_SUCCESS);
    Relu relu(kElements);
    for (int i = 0; i < 8; ++i) ASSERT_EQ(relu.run(handle, x.get(), y.get()), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(pooling.backward(handle, dx.get()), CUDNN_STATUS_SUCCESS);  // its argmax is freed in stream order
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);                // work still queued
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    const std::vector<float> result = y.read();
    for (size_t i = 0; i < input.size(); i += 4099) ASSERT_EQ(result[i], input[i] > 0 ? input[i] : 0.0f) << i;
    EXPECT_EQ(dx.read(), expected.read());
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// A kernel that faults (an output pointer no allocation holds) leaves a sticky error: the context is
// lost, and every later call must say so (EXECUTION_FAILED with CUDA's error), not claim success or
// ALLOC_FAILED. Run in a child process of its own: the context cannot be used afterwards.
int sticky_error_child() {
    setenv("LIBREDNN_BACKEND", "cuda", 1);
    cudnnHandle_t handle = nullptr;
    if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) return 2;
    Relu relu(1 << 20);
    DeviceBuffer x(ramp(1 << 20)), y(std::vector<float>(1 << 20));
    NhwcPooling pooling;  // everything allocated before the fault: afterwards cudaMalloc fails too
    if (pooling.forward(handle) != CUDNN_STATUS_SUCCESS) return 3;
    void *nowhere = reinterpret_cast<void *>(uintptr_t{1} << 44);
    if (relu.run(handle, x.get(), nowhere) != CUDNN_STATUS_SUCCESS) return 3;  // launched; faults later
    const cudaError_t sticky = cudaDeviceSynchronize();
    std::fprintf(stderr, "after the faulting kernel: %s\n", cudaGetErrorName(sticky));
    if (sticky == cudaSuccess) return 4;
    LogCapture capture;
    const cudnnStatus_t launch = relu.run(handle, x.get(), y.get());
    // Its argmax allocation fails with the sticky error: EXECUTION_FAILED, not ALLOC_FAILED.
    const cudnnStatus_t allocation = pooling.backward(handle, y.get());
    std::fprintf(stderr, "activation: %d, pooling backward: %d\n%s", launch, allocation, capture.all().c_str());
    if (launch != CUDNN_STATUS_EXECUTION_FAILED || allocation != CUDNN_STATUS_EXECUTION_FAILED) return 5;
    if (!capture.contains({"cudnnActivationForward", cudaGetErrorString(sticky)})) return 6;
    cudnnDestroy(handle);
    return 0;
}

TEST(FaultsCudaDeathTest, StickyErrorFailsLaterCallsWithExecutionFailedAndTheCudaError) {
    SKIP_WITHOUT_GPU();
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(std::exit(sticky_error_child()), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace librednn::test
#endif
