// The thread-safety cuDNN documents, on the CUDA backend (issue 16, "Threads"): eight threads, each with
// its own handle and its own non-blocking stream, run convolution forward, batch-norm training, pooling,
// softmax and an LSTM forward at once and must get the bits one thread gets; one handle is created, used
// and destroyed on different threads; and eight threads race on the first use of the lazily initialised
// state (the shim loading its sub-libraries, the CUDA runtime inside them, device limits and kernel caches,
// cuFFT loaded by the first FFT convolution) in a fresh child process, where that use really is the first.
// Skipped without a GPU; scripts/gpu_sanitize.sh also runs it under compute-sanitizer.
#include "gpu_test_util.hpp"

#include <cuda_runtime_api.h>
#include <cudnn.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace {

constexpr int kThreads = 8;

// Device memory, freed at scope end (nullptr when cudaMalloc failed: the call using it then fails).
class DeviceMemory {
public:
    explicit DeviceMemory(size_t bytes) : bytes_(bytes) {
        if (bytes > 0 && cudaMalloc(&data_, bytes) != cudaSuccess) {
            data_ = nullptr;
            cudaGetLastError();
        }
    }
    ~DeviceMemory() {
        if (data_ != nullptr) cudaFree(data_);
    }
    DeviceMemory(const DeviceMemory &) = delete;
    DeviceMemory &operator=(const DeviceMemory &) = delete;
    void *get() const { return data_; }
    size_t bytes() const { return bytes_; }

private:
    void *data_ = nullptr;
    size_t bytes_ = 0;
};

// A cuDNN descriptor, destroyed at scope end.
template <class T>
class Descriptor {
public:
    Descriptor(cudnnStatus_t (*create)(T *), cudnnStatus_t (*destroy)(T)) : destroy_(destroy) {
        if (create(&value_) != CUDNN_STATUS_SUCCESS) value_ = nullptr;
    }
    ~Descriptor() {
        if (value_ != nullptr) destroy_(value_);
    }
    Descriptor(const Descriptor &) = delete;
    Descriptor &operator=(const Descriptor &) = delete;
    T get() const { return value_; }

private:
    T value_ = nullptr;
    cudnnStatus_t (*destroy_)(T);
};

// A fixed pattern of values in [offset, offset + scale): the same inputs for every thread and round.
std::vector<float> pattern(size_t count, unsigned multiplier, unsigned modulus, float scale, float offset) {
    std::vector<float> values(count);
    for (size_t i = 0; i < count; ++i)
        values[i] = offset + scale * static_cast<float>((i * multiplier) % modulus) / static_cast<float>(modulus);
    return values;
}

// What one run of the network gave: every output's bytes in a fixed order, or the first failure.
struct NetworkResult {
    std::string error;  // empty when every call succeeded
    cudnnStatus_t fft_status = CUDNN_STATUS_SUCCESS;
    std::vector<std::vector<uint8_t>> outputs;
};

#define NET_CHECK(call)                                                              \
    do {                                                                             \
        const cudnnStatus_t status_ = (call);                                        \
        if (status_ != CUDNN_STATUS_SUCCESS) {                                       \
            result.error = std::string(#call) + ": " + cudnnGetErrorString(status_); \
            return result;                                                           \
        }                                                                            \
    } while (0)
#define NET_CUDA(call)                                                             \
    do {                                                                           \
        const cudaError_t error_ = (call);                                         \
        if (error_ != cudaSuccess) {                                               \
            result.error = std::string(#call) + ": " + cudaGetErrorString(error_); \
            return result;                                                         \
        }                                                                          \
    } while (0)

// Runs the network on `handle` (whose stream is `stream`): convolution forward (implicit GEMM, and FFT when
// `with_fft`), batch-norm training on its output, max pooling, softmax, and an LSTM forward (training mode)
// on inputs of its own. Inputs are uploaded and outputs poisoned (0xff) on the stream; every output is
// downloaded after the stream has finished. An FFT convolution cuDNN cannot run here (no libcufft) only
// records its status.
NetworkResult run_network(cudnnHandle_t handle, cudaStream_t stream, bool with_fft) {
    NetworkResult result;
    const int n = 4, c = 8, h = 20, w = 20, k = 16, ph = h / 2, pw = w / 2;
    const int seq = 5, batch = 4, input = 16, hidden = 16, layers = 1;
    const std::vector<float> x = pattern(size_t{n} * c * h * w, 37, 101, 2.0f, -1.0f);
    const std::vector<float> filter = pattern(size_t{k} * c * 3 * 3, 11, 29, 0.5f, -0.25f);
    const std::vector<float> scale = pattern(k, 5, 7, 1.0f, 0.5f), bias = pattern(k, 3, 11, 0.5f, -0.25f);
    const std::vector<float> running_mean(k, 0.0f), running_var(k, 1.0f);
    const std::vector<float> rnn_x = pattern(size_t{seq} * batch * input, 13, 23, 2.0f, -1.0f);
    const std::vector<float> rnn_h = pattern(size_t{layers} * batch * hidden, 7, 19, 1.0f, -0.5f);
    const std::vector<float> rnn_c = pattern(size_t{layers} * batch * hidden, 17, 31, 1.0f, -0.5f);
    const std::vector<int32_t> lengths(batch, seq);

    Descriptor<cudnnTensorDescriptor_t> x_desc(cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor);
    Descriptor<cudnnTensorDescriptor_t> y_desc(cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor);
    Descriptor<cudnnTensorDescriptor_t> bn_desc(cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor);
    Descriptor<cudnnTensorDescriptor_t> p_desc(cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor);
    Descriptor<cudnnTensorDescriptor_t> state_desc(cudnnCreateTensorDescriptor, cudnnDestroyTensorDescriptor);
    Descriptor<cudnnFilterDescriptor_t> w_desc(cudnnCreateFilterDescriptor, cudnnDestroyFilterDescriptor);
    Descriptor<cudnnConvolutionDescriptor_t> conv(cudnnCreateConvolutionDescriptor, cudnnDestroyConvolutionDescriptor);
    Descriptor<cudnnPoolingDescriptor_t> pool(cudnnCreatePoolingDescriptor, cudnnDestroyPoolingDescriptor);
    Descriptor<cudnnDropoutDescriptor_t> dropout(cudnnCreateDropoutDescriptor, cudnnDestroyDropoutDescriptor);
    Descriptor<cudnnRNNDescriptor_t> rnn(cudnnCreateRNNDescriptor, cudnnDestroyRNNDescriptor);
    Descriptor<cudnnRNNDataDescriptor_t> rnn_x_desc(cudnnCreateRNNDataDescriptor, cudnnDestroyRNNDataDescriptor);
    Descriptor<cudnnRNNDataDescriptor_t> rnn_y_desc(cudnnCreateRNNDataDescriptor, cudnnDestroyRNNDataDescriptor);
    for (bool created :
         {x_desc.get() != nullptr, y_desc.get() != nullptr, bn_desc.get() != nullptr, p_desc.get() != nullptr,
          state_desc.get() != nullptr, w_desc.get() != nullptr, conv.get() != nullptr, pool.get() != nullptr,
          dropout.get() != nullptr, rnn.get() != nullptr, rnn_x_desc.get() != nullptr, rnn_y_desc.get() != nullptr}) {
        if (!created) {
            result.error = "creating a descriptor failed";
            return result;
        }
    }
    NET_CHECK(cudnnSetTensor4dDescriptor(x_desc.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
    NET_CHECK(cudnnSetTensor4dDescriptor(y_desc.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, h, w));
    NET_CHECK(cudnnSetTensor4dDescriptor(p_desc.get(), CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, k, ph, pw));
    NET_CHECK(cudnnDeriveBNTensorDescriptor(bn_desc.get(), y_desc.get(), CUDNN_BATCHNORM_SPATIAL));
    NET_CHECK(cudnnSetFilter4dDescriptor(w_desc.get(), CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, c, 3, 3));
    NET_CHECK(cudnnSetConvolution2dDescriptor(conv.get(), 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    NET_CHECK(cudnnSetPooling2dDescriptor(pool.get(), CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2));

    // The dropout descriptor's states are initialised on the handle's stream (probability 0: no dropout).
    size_t state_bytes = 0;
    NET_CHECK(cudnnDropoutGetStatesSize(handle, &state_bytes));
    DeviceMemory states(state_bytes);
    NET_CHECK(cudnnSetDropoutDescriptor(dropout.get(), handle, 0.0f, states.get(), state_bytes, 1234ull));
    NET_CHECK(cudnnSetRNNDescriptor_v8(rnn.get(), CUDNN_RNN_ALGO_STANDARD, CUDNN_LSTM, CUDNN_RNN_DOUBLE_BIAS,
                                       CUDNN_UNIDIRECTIONAL, CUDNN_LINEAR_INPUT, CUDNN_DATA_FLOAT, CUDNN_DATA_FLOAT,
                                       CUDNN_DEFAULT_MATH, input, hidden, hidden, layers, dropout.get(),
                                       CUDNN_RNN_PADDED_IO_ENABLED));
    NET_CHECK(cudnnSetRNNDataDescriptor(rnn_x_desc.get(), CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED,
                                        seq, batch, input, lengths.data(), nullptr));
    NET_CHECK(cudnnSetRNNDataDescriptor(rnn_y_desc.get(), CUDNN_DATA_FLOAT, CUDNN_RNN_DATA_LAYOUT_SEQ_MAJOR_UNPACKED,
                                        seq, batch, hidden, lengths.data(), nullptr));
    const int state_dims[3] = {layers, batch, hidden}, state_strides[3] = {batch * hidden, hidden, 1};
    NET_CHECK(cudnnSetTensorNdDescriptor(state_desc.get(), CUDNN_DATA_FLOAT, 3, state_dims, state_strides));
    size_t weight_bytes = 0, rnn_work_bytes = 0, reserve_bytes = 0;
    NET_CHECK(cudnnGetRNNWeightSpaceSize(handle, rnn.get(), &weight_bytes));
    NET_CHECK(cudnnGetRNNTempSpaceSizes(handle, rnn.get(), CUDNN_FWD_MODE_TRAINING, rnn_x_desc.get(), &rnn_work_bytes,
                                        &reserve_bytes));
    const std::vector<float> weights = pattern(weight_bytes / sizeof(float), 7, 41, 0.4f, -0.2f);

    const cudnnConvolutionFwdAlgo_t gemm = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    size_t gemm_bytes = 0, fft_bytes = 0;
    NET_CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, x_desc.get(), w_desc.get(), conv.get(), y_desc.get(),
                                                      gemm, &gemm_bytes));
    if (with_fft) {
        result.fft_status = cudnnGetConvolutionForwardWorkspaceSize(
            handle, x_desc.get(), w_desc.get(), conv.get(), y_desc.get(), CUDNN_CONVOLUTION_FWD_ALGO_FFT, &fft_bytes);
    }

    const size_t y_bytes = size_t{n} * k * h * w * sizeof(float), p_bytes = size_t{n} * k * ph * pw * sizeof(float);
    const size_t channel_bytes = size_t{k} * sizeof(float), state_size = rnn_h.size() * sizeof(float);
    DeviceMemory x_d(x.size() * sizeof(float)), w_d(filter.size() * sizeof(float)), y_d(y_bytes), y_fft_d(y_bytes);
    DeviceMemory bn_d(y_bytes), scale_d(channel_bytes), bias_d(channel_bytes), mean_d(channel_bytes),
        var_d(channel_bytes), saved_mean_d(channel_bytes), saved_inv_d(channel_bytes), pooled_d(p_bytes),
        softmax_d(p_bytes), workspace(std::max(gemm_bytes, fft_bytes));
    DeviceMemory rnn_x_d(rnn_x.size() * sizeof(float)), rnn_y_d(size_t{seq} * batch * hidden * sizeof(float)),
        hx_d(state_size), cx_d(state_size), hy_d(state_size), cy_d(state_size), weights_d(weight_bytes),
        rnn_work(rnn_work_bytes), reserve(reserve_bytes), lengths_d(lengths.size() * sizeof(int32_t));
    const std::pair<const DeviceMemory *, const void *> uploads[] = {{&x_d, x.data()},
                                                                     {&w_d, filter.data()},
                                                                     {&scale_d, scale.data()},
                                                                     {&bias_d, bias.data()},
                                                                     {&mean_d, running_mean.data()},
                                                                     {&var_d, running_var.data()},
                                                                     {&rnn_x_d, rnn_x.data()},
                                                                     {&hx_d, rnn_h.data()},
                                                                     {&cx_d, rnn_c.data()},
                                                                     {&weights_d, weights.data()},
                                                                     {&lengths_d, lengths.data()}};
    for (const auto &[memory, host] : uploads) {
        if (memory->get() == nullptr) {
            result.error = "cudaMalloc failed";
            return result;
        }
        NET_CUDA(cudaMemcpyAsync(memory->get(), host, memory->bytes(), cudaMemcpyHostToDevice, stream));
    }
    // Outputs start as NaN: an element a kernel forgets to write shows (and beta = 0 must not read them).
    const DeviceMemory *outputs[] = {&y_d,         &y_fft_d,  &bn_d,      &mean_d,  &var_d, &saved_mean_d,
                                     &saved_inv_d, &pooled_d, &softmax_d, &rnn_y_d, &hy_d,  &cy_d};
    for (const DeviceMemory *output : outputs) {
        if (output == &mean_d || output == &var_d) continue;  // running statistics are read and updated
        NET_CUDA(cudaMemsetAsync(output->get(), 0xff, output->bytes(), stream));
    }

    const float one = 1.0f, zero = 0.0f;
    NET_CHECK(cudnnConvolutionForward(handle, &one, x_desc.get(), x_d.get(), w_desc.get(), w_d.get(), conv.get(), gemm,
                                      workspace.get(), gemm_bytes, &zero, y_desc.get(), y_d.get()));
    if (with_fft && result.fft_status == CUDNN_STATUS_SUCCESS) {
        result.fft_status = cudnnConvolutionForward(handle, &one, x_desc.get(), x_d.get(), w_desc.get(), w_d.get(),
                                                    conv.get(), CUDNN_CONVOLUTION_FWD_ALGO_FFT, workspace.get(),
                                                    fft_bytes, &zero, y_desc.get(), y_fft_d.get());
    }
    NET_CHECK(cudnnBatchNormalizationForwardTraining(
        handle, CUDNN_BATCHNORM_SPATIAL, &one, &zero, y_desc.get(), y_d.get(), y_desc.get(), bn_d.get(), bn_desc.get(),
        scale_d.get(), bias_d.get(), 0.5, mean_d.get(), var_d.get(), 1e-5, saved_mean_d.get(), saved_inv_d.get()));
    NET_CHECK(
        cudnnPoolingForward(handle, pool.get(), &one, y_desc.get(), bn_d.get(), &zero, p_desc.get(), pooled_d.get()));
    NET_CHECK(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, p_desc.get(),
                                  pooled_d.get(), &zero, p_desc.get(), softmax_d.get()));
    NET_CHECK(cudnnRNNForward(handle, rnn.get(), CUDNN_FWD_MODE_TRAINING, static_cast<const int32_t *>(lengths_d.get()),
                              rnn_x_desc.get(), rnn_x_d.get(), rnn_y_desc.get(), rnn_y_d.get(), state_desc.get(),
                              hx_d.get(), hy_d.get(), state_desc.get(), cx_d.get(), cy_d.get(), weight_bytes,
                              weights_d.get(), rnn_work_bytes, rnn_work.get(), reserve_bytes, reserve.get()));

    for (const DeviceMemory *output : outputs) {
        if (output == &y_fft_d && !(with_fft && result.fft_status == CUDNN_STATUS_SUCCESS)) continue;
        std::vector<uint8_t> bytes(output->bytes());
        NET_CUDA(cudaMemcpyAsync(bytes.data(), output->get(), bytes.size(), cudaMemcpyDeviceToHost, stream));
        result.outputs.push_back(std::move(bytes));
    }
    NET_CUDA(cudaStreamSynchronize(stream));
    return result;
}

#undef NET_CHECK
#undef NET_CUDA

// Empty when `got` is `expected` bit for bit, else what differs.
std::string compare(const NetworkResult &got, const NetworkResult &expected) {
    if (!got.error.empty()) return got.error;
    if (got.fft_status != expected.fft_status) {
        return std::string("the FFT convolution returned ") + cudnnGetErrorString(got.fft_status) +
               ", one thread got " + cudnnGetErrorString(expected.fft_status);
    }
    if (got.outputs.size() != expected.outputs.size()) return "a different number of outputs";
    for (size_t i = 0; i < got.outputs.size(); ++i) {
        const std::vector<uint8_t> &a = got.outputs[i], &b = expected.outputs[i];
        if (a.size() != b.size()) return "output " + std::to_string(i) + " has another size";
        for (size_t byte = 0; byte < a.size(); ++byte) {
            if (a[byte] != b[byte]) {
                return "output " + std::to_string(i) + " differs first at byte " + std::to_string(byte) + " (float " +
                       std::to_string(byte / sizeof(float)) + ")";
            }
        }
    }
    return "";
}

// A handle on the CUDA backend with a non-blocking stream of its own (no implicit synchronisation with
// the legacy default stream, so that the threads' work overlaps on the GPU).
struct StreamHandle {
    cudnnHandle_t handle = nullptr;
    cudaStream_t stream = nullptr;
    std::string error;

    StreamHandle() {
        if (cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking) != cudaSuccess) {
            stream = nullptr;
            error = "cudaStreamCreateWithFlags failed";
        } else if (cudnnCreate(&handle) != CUDNN_STATUS_SUCCESS) {
            handle = nullptr;
            error = "cudnnCreate failed";
        } else if (cudnnSetStream(handle, stream) != CUDNN_STATUS_SUCCESS) {
            error = "cudnnSetStream failed";
        }
    }
    ~StreamHandle() {
        if (handle != nullptr) cudnnDestroy(handle);
        if (stream != nullptr) cudaStreamDestroy(stream);
    }
    StreamHandle(const StreamHandle &) = delete;
    StreamHandle &operator=(const StreamHandle &) = delete;
};

// The CUDA backend for every handle these tests create (read by cudnnCreate; set before any thread).
class CudaBackend {
public:
    CudaBackend() { setenv("LIBREDNN_BACKEND", "cuda", 1); }
    ~CudaBackend() { unsetenv("LIBREDNN_BACKEND"); }
};

// Releases the waiting threads together, so that their first calls overlap as much as threads can.
class StartingLine {
public:
    explicit StartingLine(int threads) : waiting_(threads) {}
    void arrive_and_wait() {
        waiting_.fetch_sub(1);
        while (waiting_.load() > 0) std::this_thread::yield();
    }

private:
    std::atomic<int> waiting_;
};

TEST(CudaThreads, DistinctHandlesAndStreamsOnConcurrentThreadsGiveTheSameBits) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    CudaBackend cuda;
    NetworkResult expected;
    {
        StreamHandle one;
        ASSERT_EQ(one.error, "");
        expected = run_network(one.handle, one.stream, true);
        ASSERT_EQ(expected.error, "");
    }
    constexpr int kRounds = 4;
    std::vector<std::string> failures(kThreads);
    std::vector<std::thread> threads;
    StartingLine start(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            StreamHandle mine;
            start.arrive_and_wait();
            if (!mine.error.empty()) {
                failures[static_cast<size_t>(t)] = mine.error;
                return;
            }
            for (int round = 0; round < kRounds; ++round) {
                const std::string difference = compare(run_network(mine.handle, mine.stream, true), expected);
                if (!difference.empty()) {
                    failures[static_cast<size_t>(t)] = "round " + std::to_string(round) + ": " + difference;
                    return;
                }
            }
        });
    }
    for (std::thread &thread : threads) thread.join();
    for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[static_cast<size_t>(t)], "") << "thread " << t;
}

TEST(CudaThreads, AHandleMayBeCreatedUsedAndDestroyedOnDifferentThreads) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    CudaBackend cuda;
    NetworkResult expected;
    {
        StreamHandle one;
        ASSERT_EQ(one.error, "");
        expected = run_network(one.handle, one.stream, false);
        ASSERT_EQ(expected.error, "");
    }
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    cudnnHandle_t handle = nullptr;
    cudnnStatus_t created = CUDNN_STATUS_INTERNAL_ERROR, streamed = CUDNN_STATUS_INTERNAL_ERROR;
    std::thread([&] { created = cudnnCreate(&handle); }).join();
    ASSERT_EQ(created, CUDNN_STATUS_SUCCESS);
    NetworkResult first, second;
    std::thread([&] {
        streamed = cudnnSetStream(handle, stream);
        if (streamed == CUDNN_STATUS_SUCCESS) first = run_network(handle, stream, false);
    }).join();
    EXPECT_EQ(streamed, CUDNN_STATUS_SUCCESS);
    std::thread([&] { second = run_network(handle, stream, false); }).join();
    EXPECT_EQ(compare(first, expected), "");
    EXPECT_EQ(compare(second, expected), "");
    cudnnStatus_t destroyed = CUDNN_STATUS_INTERNAL_ERROR;
    std::thread([&] { destroyed = cudnnDestroy(handle); }).join();
    EXPECT_EQ(destroyed, CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudaStreamDestroy(stream), cudaSuccess);
}

// In a process where LibreDNN has not run yet: kThreads threads start together and each creates the
// process's first handles, loading the sub-libraries through the shim (ops_infer, cnn_infer, ops_train,
// adv_infer) and running every kernel of the network for the first time, FFT convolution included (which
// loads cuFFT, unless `with_fft` is false). Then one thread runs the same calls again. Returns the process's
// exit status: 0 when every thread got the one thread's bits (or, without libcufft, the same FFT status), else
// 1 with the reasons on stderr.
int first_use_race_child(bool with_fft = true) {
    std::vector<NetworkResult> results(kThreads);
    std::vector<std::thread> threads;
    StartingLine start(kThreads);
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&, t] {
            start.arrive_and_wait();
            StreamHandle mine;
            if (!mine.error.empty()) {
                results[static_cast<size_t>(t)].error = mine.error;
                return;
            }
            results[static_cast<size_t>(t)] = run_network(mine.handle, mine.stream, with_fft);
        });
    }
    for (std::thread &thread : threads) thread.join();
    StreamHandle one;
    if (!one.error.empty()) {
        std::fprintf(stderr, "after the race, one thread: %s\n", one.error.c_str());
        return 1;
    }
    const NetworkResult expected = run_network(one.handle, one.stream, with_fft);
    if (!expected.error.empty()) {
        std::fprintf(stderr, "after the race, one thread: %s\n", expected.error.c_str());
        return 1;
    }
    int status = 0;
    for (int t = 0; t < kThreads; ++t) {
        const std::string difference = compare(results[static_cast<size_t>(t)], expected);
        if (!difference.empty()) {
            std::fprintf(stderr, "racing thread %d: %s\n", t, difference.c_str());
            status = 1;
        }
    }
    return status;
}

// The same race in this process, without the death test's child: its first use of LibreDNN when run alone
// (`--gtest_filter=CudaThreads.RacingFirstUse*`, as scripts/gpu_sanitize.sh runs it under compute-sanitizer,
// where the death test's re-executed child never reported back: docs/RELIABILITY.md); after other tests in
// the same process it checks the same bits, on state already initialised.
TEST(CudaThreads, RacingFirstUseInThisProcessGetsTheSameBits) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    EXPECT_EQ(first_use_race_child(), 0);
}

// The same with the CUDA context created first, on this thread: LibreDNN's first use still races (the
// sub-libraries, the solver tables, cuFFT), the CUDA runtime's does not. Run alone under compute-sanitizer
// beside the test above, it tells whether the hang there (docs/RELIABILITY.md) needs the context's creation
// in the race.
TEST(CudaThreads, RacingFirstUseAfterTheContextExistsGetsTheSameBits) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    ASSERT_EQ(cudaFree(nullptr), cudaSuccess);
    EXPECT_EQ(first_use_race_child(), 0);
}

// The same race without the FFT convolution, so without cuFFT's first load (its modules are large, and
// compute-sanitizer instruments every module a process loads): run alone under compute-sanitizer beside the
// two above, it tells whether the hang there needs cuFFT.
TEST(CudaThreads, RacingFirstUseWithoutCufftGetsTheSameBits) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    EXPECT_EQ(first_use_race_child(false), 0);
}

TEST(CudaThreadsDeathTest, ThreadsRacingOnFirstUseOfLazilyInitialisedStateGetTheSameBits) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    CudaBackend cuda;
    // "threadsafe": the child re-executes this binary running only this test, so LibreDNN's first use in
    // the child is the race (the parent may have run other tests first).
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(std::exit(first_use_race_child()), ::testing::ExitedWithCode(0), "");
}

}  // namespace
