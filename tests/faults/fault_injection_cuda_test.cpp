// The fault sites of the CUDA backend (docs/RELIABILITY.md): device allocations, kernel launches and
// asynchronous copies fail with the status cuDNN documents and the CUDA error in the log, leave the
// handle usable and free what they took; a sticky error fails later calls with EXECUTION_FAILED; a
// handle destroyed with work in flight lets the work finish. Every test skips without a GPU.
#include "faults/fault_test_util.hpp"

#if LIBREDNN_HAVE_CUDA
#include <cuda_runtime_api.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    // One image of 96 x 96 a channel: more values than a channel cluster holds (training_cluster.hpp), so
    // the three-pass kernels run, and they allocate their partial statistics.
    cudnnTensorDescriptor_t x_desc = tensor4d(CUDNN_TENSOR_NCHW, 1, 8, 96, 96);
    cudnnTensorDescriptor_t p_desc = tensor4d(CUDNN_TENSOR_NCHW, 1, 8, 1, 1);
    const size_t count = 8 * 96 * 96;
    DeviceBuffer x{ramp(count)}, y{std::vector<float>(count)}, y2{std::vector<float>(count)};
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

// Half values packed two to a float, for DeviceBuffer (exact for the multiples of 1/8 ramp gives).
uint16_t to_half(float value) {
    if (value == 0.0f) return 0;
    int exponent = 0;
    const float fraction = std::frexp(std::fabs(value), &exponent);  // value = fraction * 2^exponent
    const uint16_t mantissa = static_cast<uint16_t>(std::lround((fraction * 2.0f - 1.0f) * 1024.0f));
    return static_cast<uint16_t>((value < 0 ? 0x8000 : 0) | ((exponent - 1 + 15) << 10) | mantissa);
}

float from_half(uint16_t bits) {
    const int exponent = (bits >> 10) & 0x1f, mantissa = bits & 0x3ff;
    const float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(mantissa), -24)
                                          : std::ldexp(static_cast<float>(mantissa + 1024), exponent - 25);
    return bits & 0x8000 ? -magnitude : magnitude;
}

std::vector<float> packed_halves(const std::vector<float> &values) {
    std::vector<uint16_t> halves(values.size() + values.size() % 2);
    for (size_t i = 0; i < values.size(); ++i) halves[i] = to_half(values[i]);
    std::vector<float> packed(halves.size() / 2);
    std::memcpy(packed.data(), halves.data(), halves.size() * sizeof(uint16_t));
    return packed;
}

std::vector<float> unpacked_halves(const std::vector<float> &packed) {
    std::vector<uint16_t> halves(packed.size() * 2);
    std::memcpy(halves.data(), packed.data(), halves.size() * sizeof(uint16_t));
    std::vector<float> values(halves.size());
    for (size_t i = 0; i < halves.size(); ++i) values[i] = from_half(halves[i]);
    return values;
}

void expect_close(const std::vector<float> &actual, const std::vector<float> &expected, float tolerance) {
    ASSERT_EQ(actual.size(), expected.size());
    for (size_t i = 0; i < actual.size(); ++i)
        ASSERT_NEAR(actual[i], expected[i], tolerance * (1.0f + std::fabs(expected[i]))) << i;
}

// The spatial transformer's sampler backward on half data: the kernels sum into float scratch that the
// call allocates on the stream and clears first. Theta a small rotation, so that the grid is not trivial.
struct HalfSamplerBackward {
    static constexpr int kN = 2, kC = 3, kH = 8, kW = 8, kInputs = kN * kC * kH * kW, kGrid = kN * kH * kW * 2;
    cudnnSpatialTransformerDescriptor_t st = nullptr;
    cudnnTensorDescriptor_t desc = nullptr;
    DeviceBuffer x{packed_halves(ramp(kInputs))}, dy{packed_halves(ramp(kInputs))};
    DeviceBuffer theta{packed_halves({1.0f, 0.25f, 0.0f, -0.25f, 1.0f, 0.0f, 1.0f, -0.25f, 0.125f, 0.25f, 1.0f, 0.0f})};
    DeviceBuffer grid{std::vector<float>(kGrid / 2)};
    HalfSamplerBackward() {
        const int dims[4] = {kN, kC, kH, kW};
        EXPECT_EQ(cudnnCreateSpatialTransformerDescriptor(&st), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetSpatialTransformerNdDescriptor(st, CUDNN_SAMPLER_BILINEAR, CUDNN_DATA_HALF, 4, dims),
                  CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS);
        EXPECT_EQ(cudnnSetTensor4dDescriptor(desc, CUDNN_TENSOR_NCHW, CUDNN_DATA_HALF, kN, kC, kH, kW),
                  CUDNN_STATUS_SUCCESS);
    }
    ~HalfSamplerBackward() {
        cudnnDestroySpatialTransformerDescriptor(st);
        cudnnDestroyTensorDescriptor(desc);
    }
    cudnnStatus_t make_grid(cudnnHandle_t handle) const {
        return cudnnSpatialTfGridGeneratorForward(handle, st, theta.get(), grid.get());
    }
    cudnnStatus_t backward(cudnnHandle_t handle, void *dx, void *dgrid) const {
        const float alpha = 1.0f, beta = 0.0f;
        return cudnnSpatialTfSamplerBackward(handle, st, &alpha, desc, x.get(), &beta, desc, dx, &alpha, desc, dy.get(),
                                             grid.get(), &beta, dgrid);
    }
};

TEST(FaultsCuda, SpatialTfSamplerScratchOutOfDeviceMemoryReturnsAllocFailedAndLeavesDx) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    HalfSamplerBackward sampler;
    ASSERT_EQ(sampler.make_grid(handle), CUDNN_STATUS_SUCCESS);
    const std::vector<float> untouched = packed_halves(std::vector<float>(HalfSamplerBackward::kInputs, 42.0f));
    DeviceBuffer expected_dx(untouched), expected_dgrid(std::vector<float>(HalfSamplerBackward::kGrid / 2));
    DeviceBuffer dx(untouched), dgrid(std::vector<float>(HalfSamplerBackward::kGrid / 2));
    fault::disarm_all();
    ASSERT_EQ(sampler.backward(handle, expected_dx.get(), expected_dgrid.get()), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(fault::hits(Site::device_allocation), 1) << "no scratch: half data no longer sums through it?";
    {
        ArmedFault armed(Site::device_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, sampler.backward(handle, dx.get(), dgrid.get()),
                        "cudnnSpatialTfSamplerBackward", "scratch the sampler needs", "out of memory",
                        "cudaErrorMemoryAllocation");
    }
    EXPECT_EQ(dx.read(), untouched) << "dx changed by a failed call";
    ASSERT_EQ(sampler.backward(handle, dx.get(), dgrid.get()), CUDNN_STATUS_SUCCESS);
    // Float atomics into the scratch: the order of the sums may differ between runs, then rounded to half.
    expect_close(unpacked_halves(dx.read()), unpacked_halves(expected_dx.read()), 2e-3f);
    expect_close(unpacked_halves(dgrid.read()), unpacked_halves(expected_dgrid.read()), 2e-3f);
}

TEST(FaultsCuda, SpatialTfSamplerScratchClearFailureReturnsExecutionFailedAndTheNextCallWorks) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    HalfSamplerBackward sampler;
    ASSERT_EQ(sampler.make_grid(handle), CUDNN_STATUS_SUCCESS);
    DeviceBuffer expected_dx(std::vector<float>(HalfSamplerBackward::kInputs / 2)),
        expected_dgrid(std::vector<float>(HalfSamplerBackward::kGrid / 2));
    DeviceBuffer dx(std::vector<float>(HalfSamplerBackward::kInputs / 2)),
        dgrid(std::vector<float>(HalfSamplerBackward::kGrid / 2));
    ASSERT_EQ(sampler.backward(handle, expected_dx.get(), expected_dgrid.get()), CUDNN_STATUS_SUCCESS);
    {
        ArmedFault armed(Site::async_copy);
        EXPECT_REJECTED(CUDNN_STATUS_EXECUTION_FAILED, sampler.backward(handle, dx.get(), dgrid.get()),
                        "cudnnSpatialTfSamplerBackward", "clearing the sampler's", "invalid argument");
        EXPECT_EQ(fault::hits(Site::async_copy), 1);
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failed clear left an error behind";
    ASSERT_EQ(sampler.backward(handle, dx.get(), dgrid.get()), CUDNN_STATUS_SUCCESS);
    expect_close(unpacked_halves(dx.read()), unpacked_halves(expected_dx.read()), 2e-3f);
}

TEST(FaultsCuda, BiasGradientSplitSumOutOfDeviceMemoryReturnsAllocFailedAndLeavesDb) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    // 8 sums of 2^17 values each: the reduction splits them over the SMs, the partials in scratch.
    cudnnTensorDescriptor_t dy_desc = tensor4d(CUDNN_TENSOR_NCHW, 32, 8, 64, 64);
    cudnnTensorDescriptor_t db_desc = tensor4d(CUDNN_TENSOR_NCHW, 1, 8, 1, 1);
    DeviceBuffer dy(ramp(32 * 8 * 64 * 64)), expected(std::vector<float>(8)), db(std::vector<float>(8, 42.0f));
    const float alpha = 1.0f, beta = 0.0f;
    auto run = [&](void *out) {
        return cudnnConvolutionBackwardBias(handle, &alpha, dy_desc, dy.get(), &beta, db_desc, out);
    };
    fault::disarm_all();
    ASSERT_EQ(run(expected.get()), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(fault::hits(Site::device_allocation), 1) << "not the split sum: the reduction's plan changed?";
    {
        ArmedFault armed(Site::device_allocation);
        EXPECT_REJECTED(CUDNN_STATUS_ALLOC_FAILED, run(db.get()), "cudnnConvolutionBackwardBias",
                        "the bias gradient's split sum needs", "out of memory");
    }
    EXPECT_EQ(db.read(), std::vector<float>(8, 42.0f)) << "db changed by a failed call";
    ASSERT_EQ(run(db.get()), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(db.read(), expected.read()) << "the split sum combines its partials in a fixed order";
    cudnnDestroyTensorDescriptor(dy_desc);
    cudnnDestroyTensorDescriptor(db_desc);
}

TEST(FaultsCuda, DivisiveNormalizationInPlaceCopyFailureReturnsExecutionFailedAndTheNextCallWorks) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    constexpr int kCount = 2 * 4 * 8 * 8;
    cudnnTensorDescriptor_t desc = tensor4d(CUDNN_TENSOR_NCHW, 2, 4, 8, 8);
    cudnnLRNDescriptor_t lrn = nullptr;
    ASSERT_EQ(cudnnCreateLRNDescriptor(&lrn), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetLRNDescriptor(lrn, 5, 1e-4, 0.75, 2.0), CUDNN_STATUS_SUCCESS);
    const std::vector<float> input = ramp(kCount);
    DeviceBuffer x(input), y{std::vector<float>(kCount)}, temp{std::vector<float>(kCount)},
        temp2{std::vector<float>(kCount)}, in_place(input);
    const float alpha = 1.0f, beta = 0.0f;
    auto run = [&](const void *from, void *to) {
        return cudnnDivisiveNormalizationForward(handle, lrn, CUDNN_DIVNORM_PRECOMPUTED_MEANS, &alpha, desc, from,
                                                 nullptr, temp.get(), temp2.get(), &beta, desc, to);
    };
    ASSERT_EQ(run(x.get(), y.get()), CUDNN_STATUS_SUCCESS);  // out of place: nothing to copy
    {
        // y == x: x is copied into temp before the kernels overwrite it.
        ArmedFault armed(Site::async_copy);
        EXPECT_REJECTED(CUDNN_STATUS_EXECUTION_FAILED, run(in_place.get(), in_place.get()),
                        "cudnnDivisiveNormalizationForward", "copying an input the output overwrites into temp",
                        "invalid argument");
        EXPECT_EQ(fault::hits(Site::async_copy), 1) << "not the in-place copy: its plan changed?";
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failed copy left an error behind";
    EXPECT_EQ(in_place.read(), input) << "x changed by a call that failed before any kernel";
    ASSERT_EQ(run(in_place.get(), in_place.get()), CUDNN_STATUS_SUCCESS);
    expect_close(in_place.read(), y.read(), 1e-6f);
    cudnnDestroyLRNDescriptor(lrn);
    cudnnDestroyTensorDescriptor(desc);
}

TEST(FaultsCuda, CtcLossLabelCopyFailureReturnsExecutionFailedAndLeavesTheCosts) {
    SKIP_WITHOUT_GPU();
    Handle handle("cuda");
    ASSERT_EQ(handle.status(), CUDNN_STATUS_SUCCESS);
    constexpr int kT = 6, kN = 2, kA = 5;
    const int dims[3] = {kT, kN, kA}, strides[3] = {kN * kA, kA, 1};
    cudnnTensorDescriptor_t desc = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&desc), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensorNdDescriptor(desc, CUDNN_DATA_FLOAT, 3, dims, strides), CUDNN_STATUS_SUCCESS);
    cudnnCTCLossDescriptor_t ctc = nullptr;
    ASSERT_EQ(cudnnCreateCTCLossDescriptor(&ctc), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(
        cudnnSetCTCLossDescriptorEx(ctc, CUDNN_DATA_FLOAT, CUDNN_LOSS_NORMALIZATION_SOFTMAX, CUDNN_NOT_PROPAGATE_NAN),
        CUDNN_STATUS_SUCCESS);
    const int labels[] = {1, 2, 3, 3}, label_lengths[] = {2, 2}, input_lengths[] = {kT, kT};
    size_t bytes = 0;
    ASSERT_EQ(cudnnGetCTCLossWorkspaceSize(handle, desc, desc, labels, label_lengths, input_lengths,
                                           CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, ctc, &bytes),
              CUDNN_STATUS_SUCCESS);
    DeviceBuffer probs(ramp(kT * kN * kA)), gradients(std::vector<float>(kT * kN * kA)),
        workspace(std::vector<float>(bytes / sizeof(float) + 1)), expected{std::vector<float>(kN)},
        costs(std::vector<float>(kN, 42.0f));
    auto run = [&](void *out) {
        return cudnnCTCLoss(handle, desc, probs.get(), labels, label_lengths, input_lengths, out, desc, gradients.get(),
                            CUDNN_CTC_LOSS_ALGO_DETERMINISTIC, ctc, workspace.get(), bytes);
    };
    ASSERT_EQ(run(expected.get()), CUDNN_STATUS_SUCCESS);
    {
        ArmedFault armed(Site::async_copy);
        EXPECT_REJECTED(CUDNN_STATUS_EXECUTION_FAILED, run(costs.get()), "cudnnCTCLoss",
                        "copying the CTC labels and lengths to the device", "invalid argument");
    }
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << "the failed copy left an error behind";
    EXPECT_EQ(costs.read(), std::vector<float>(kN, 42.0f)) << "costs changed by a call that failed before its kernel";
    ASSERT_EQ(run(costs.get()), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(costs.read(), expected.read()) << "both algorithms are deterministic";
    cudnnDestroyCTCLossDescriptor(ctc);
    cudnnDestroyTensorDescriptor(desc);
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
