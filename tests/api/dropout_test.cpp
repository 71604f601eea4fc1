// The dropout descriptor (create, set, restore, get, destroy), its states initialisation on the host
// backend, and the states and reserve-space sizes, through the public API. The states on the GPU and
// the dropout calls are tested in tests/ops/dropout_test.cpp.
#include "api_test_util.hpp"

#include <cudnn.h>

#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace {

// A handle on the backend LIBREDNN_BACKEND names, or nullptr when this machine cannot give one.
cudnnHandle_t create_handle_on(const char *backend) {
    setenv("LIBREDNN_BACKEND", backend, 1);
    cudnnHandle_t handle = nullptr;
    const cudnnStatus_t status = cudnnCreate(&handle);
    unsetenv("LIBREDNN_BACKEND");
    return status == CUDNN_STATUS_SUCCESS ? handle : nullptr;
}

struct Handle {
    cudnnHandle_t handle = nullptr;
    explicit Handle(const char *backend) : handle(create_handle_on(backend)) {}
    ~Handle() {
        if (handle) {
            EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
        }
    }
};

struct DropoutDesc {
    cudnnDropoutDescriptor_t desc = nullptr;
    DropoutDesc() { EXPECT_EQ(cudnnCreateDropoutDescriptor(&desc), CUDNN_STATUS_SUCCESS); }
    ~DropoutDesc() { EXPECT_EQ(cudnnDestroyDropoutDescriptor(desc), CUDNN_STATUS_SUCCESS); }
};

size_t states_size(cudnnHandle_t handle) {
    size_t size = 0;
    EXPECT_EQ(cudnnDropoutGetStatesSize(handle, &size), CUDNN_STATUS_SUCCESS);
    return size;
}

// The states `seed` initialises on the host backend, in a buffer first filled with `fill`.
std::vector<unsigned char> host_states(cudnnHandle_t handle, unsigned long long seed, unsigned char fill = 0xCD) {
    DropoutDesc d;
    std::vector<unsigned char> states(states_size(handle), fill);
    EXPECT_EQ(cudnnSetDropoutDescriptor(d.desc, handle, 0.5f, states.data(), states.size(), seed),
              CUDNN_STATUS_SUCCESS);
    return states;
}

}  // namespace

TEST(DropoutStates, SizeIsPositive) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    EXPECT_GT(states_size(host.handle), 0u);
}

TEST(DropoutStates, SameSeedGivesSameStatesAndAnotherSeedOthers) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    const std::vector<unsigned char> first = host_states(host.handle, 1234, 0x00);
    const std::vector<unsigned char> again = host_states(host.handle, 1234, 0xFF);  // whatever was there before
    const std::vector<unsigned char> other = host_states(host.handle, 1235);
    const std::vector<unsigned char> zero = host_states(host.handle, 0);
    EXPECT_EQ(first, again);
    EXPECT_NE(first, other);
    EXPECT_NE(first, zero);
    EXPECT_NE(other, zero);
    EXPECT_NE(first, std::vector<unsigned char>(first.size(), 0x00)) << "the states were not written";
}

TEST(DropoutStates, BytesPastTheStatesSizeAreLeftAlone) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    const size_t size = states_size(host.handle);
    std::vector<unsigned char> buffer(size + 16, 0x5A);
    ASSERT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 0.1f, buffer.data(), buffer.size(), 7),
              CUDNN_STATUS_SUCCESS);
    for (size_t i = size; i < buffer.size(); ++i) EXPECT_EQ(buffer[i], 0x5A) << "byte " << i;
}

TEST(DropoutDescriptor, SetThenGetReturnsProbabilityStatesAndSeed) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    std::vector<unsigned char> states(states_size(host.handle));
    ASSERT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 0.25f, states.data(), states.size(), 99ull),
              CUDNN_STATUS_SUCCESS);
    float p = -1;
    void *states_out = nullptr;
    unsigned long long seed = 0;
    ASSERT_EQ(cudnnGetDropoutDescriptor(d.desc, host.handle, &p, &states_out, &seed), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(p, 0.25f);
    EXPECT_EQ(states_out, states.data());
    EXPECT_EQ(seed, 99ull);
}

TEST(DropoutDescriptor, AcceptsProbabilitiesZeroAndOne) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    std::vector<unsigned char> states(states_size(host.handle));
    EXPECT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 0.0f, states.data(), states.size(), 1),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 1.0f, states.data(), states.size(), 1),
              CUDNN_STATUS_SUCCESS);
}

TEST(DropoutDescriptor, SetWithoutStatesSetsOnlyTheProbability) {
    // cuDNN: with states NULL the generator is not initialised and only the probability is set. This
    // works on every backend, the CUDA one included.
    cudnnHandle_t handle = nullptr;
    ASSERT_EQ(cudnnCreate(&handle), CUDNN_STATUS_SUCCESS);
    DropoutDesc d;
    ASSERT_EQ(cudnnSetDropoutDescriptor(d.desc, handle, 0.0f, nullptr, 0, 5), CUDNN_STATUS_SUCCESS);
    float p = -1;
    void *states = reinterpret_cast<void *>(0x1);
    unsigned long long seed = 1;
    ASSERT_EQ(cudnnGetDropoutDescriptor(d.desc, handle, &p, &states, &seed), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(p, 0.0f);
    EXPECT_EQ(states, nullptr);
    EXPECT_EQ(seed, 0ull);  // the seed goes with states; none were initialised
    EXPECT_EQ(cudnnDestroy(handle), CUDNN_STATUS_SUCCESS);
}

TEST(DropoutDescriptor, SetWithoutStatesKeepsEarlierStates) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    std::vector<unsigned char> states(states_size(host.handle));
    ASSERT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 0.5f, states.data(), states.size(), 11),
              CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 0.125f, nullptr, 0, 12), CUDNN_STATUS_SUCCESS);
    float p;
    void *states_out;
    unsigned long long seed;
    ASSERT_EQ(cudnnGetDropoutDescriptor(d.desc, host.handle, &p, &states_out, &seed), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(p, 0.125f);
    EXPECT_EQ(states_out, states.data());
    EXPECT_EQ(seed, 11ull);
}

TEST(DropoutDescriptor, RestoreKeepsTheStatesWithoutReinitialisingThem) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    std::vector<unsigned char> states = host_states(host.handle, 2024);
    const std::vector<unsigned char> before = states;
    states[0] ^= 0xFF;  // a restore must not rewrite even a damaged buffer
    const std::vector<unsigned char> damaged = states;
    DropoutDesc d;
    ASSERT_EQ(cudnnRestoreDropoutDescriptor(d.desc, host.handle, 0.3f, states.data(), states.size(), 2024),
              CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(states, damaged);
    float p;
    void *states_out;
    unsigned long long seed;
    ASSERT_EQ(cudnnGetDropoutDescriptor(d.desc, host.handle, &p, &states_out, &seed), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(p, 0.3f);
    EXPECT_EQ(states_out, states.data());
    EXPECT_EQ(seed, 2024ull);
    EXPECT_NE(before, damaged);
}

TEST(DropoutDescriptor, RejectsProbabilitiesOutsideZeroToOne) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    std::vector<unsigned char> states(states_size(host.handle));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetDropoutDescriptor(d.desc, host.handle, -0.5f, states.data(), states.size(), 1),
                    "cudnnSetDropoutDescriptor", "dropout is -0.5", "between 0 and 1");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnSetDropoutDescriptor(d.desc, host.handle, 1.5f, nullptr, 0, 1),
                    "dropout is 1.5");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRestoreDropoutDescriptor(d.desc, host.handle, std::numeric_limits<float>::quiet_NaN(),
                                                  states.data(), states.size(), 1),
                    "cudnnRestoreDropoutDescriptor", "dropout is nan");
}

TEST(DropoutDescriptor, RejectsAStatesBufferSmallerThanTheStatesSize) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    const size_t size = states_size(host.handle);
    std::vector<unsigned char> states(size);
    const std::string too_small = "stateSizeInBytes is " + std::to_string(size - 1);
    EXPECT_REJECTED(CUDNN_STATUS_INVALID_VALUE,
                    cudnnSetDropoutDescriptor(d.desc, host.handle, 0.5f, states.data(), size - 1, 1), too_small.c_str(),
                    "cudnnDropoutGetStatesSize");
    EXPECT_REJECTED(CUDNN_STATUS_INVALID_VALUE,
                    cudnnRestoreDropoutDescriptor(d.desc, host.handle, 0.5f, states.data(), 0, 1),
                    "stateSizeInBytes is 0");
}

TEST(DropoutDescriptor, GetBeforeSetIsRejected) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    DropoutDesc d;
    float p;
    void *states;
    unsigned long long seed;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetDropoutDescriptor(d.desc, host.handle, &p, &states, &seed),
                    "cudnnGetDropoutDescriptor", "dropoutDesc has not been set");
}

TEST(DropoutDescriptor, RejectsNullPointers) {
    Handle host("host");
    ASSERT_NE(host.handle, nullptr);
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnCreateDropoutDescriptor(nullptr), "dropoutDesc is NULL");
    DropoutDesc d;
    std::vector<unsigned char> states(states_size(host.handle));
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetDropoutDescriptor(nullptr, host.handle, 0.5f, states.data(), states.size(), 1),
                    "dropoutDesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnSetDropoutDescriptor(d.desc, nullptr, 0.5f, states.data(), states.size(), 1),
                    "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM,
                    cudnnRestoreDropoutDescriptor(d.desc, nullptr, 0.5f, states.data(), states.size(), 1),
                    "handle is NULL");
    ASSERT_EQ(cudnnSetDropoutDescriptor(d.desc, host.handle, 0.5f, states.data(), states.size(), 1),
              CUDNN_STATUS_SUCCESS);
    float p;
    void *states_out;
    unsigned long long seed;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetDropoutDescriptor(d.desc, host.handle, nullptr, &states_out, &seed),
                    "dropout is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetDropoutDescriptor(d.desc, host.handle, &p, nullptr, &seed),
                    "states is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetDropoutDescriptor(d.desc, host.handle, &p, &states_out, nullptr),
                    "seed is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnGetDropoutDescriptor(d.desc, nullptr, &p, &states_out, &seed),
                    "handle is NULL");
    size_t size;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDropoutGetStatesSize(nullptr, &size), "cudnnDropoutGetStatesSize",
                    "handle is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDropoutGetStatesSize(host.handle, nullptr), "sizeInBytes is NULL");
}

TEST(DropoutReserveSpace, IsOneBytePerElement) {
    cudnnTensorDescriptor_t x = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&x), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 2, 3, 4, 5), CUDNN_STATUS_SUCCESS);
    size_t size = 0;
    ASSERT_EQ(cudnnDropoutGetReserveSpaceSize(x, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, 120u);
    ASSERT_EQ(cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 8, 16, 7, 7), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudnnDropoutGetReserveSpaceSize(x, &size), CUDNN_STATUS_SUCCESS);
    EXPECT_EQ(size, 8u * 16 * 7 * 7);
    EXPECT_EQ(cudnnDestroyTensorDescriptor(x), CUDNN_STATUS_SUCCESS);
}

TEST(DropoutReserveSpace, RejectsUnsetTensorsAndNullPointers) {
    cudnnTensorDescriptor_t x = nullptr;
    ASSERT_EQ(cudnnCreateTensorDescriptor(&x), CUDNN_STATUS_SUCCESS);
    size_t size;
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDropoutGetReserveSpaceSize(x, &size),
                    "cudnnDropoutGetReserveSpaceSize", "xdesc has not been set");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDropoutGetReserveSpaceSize(nullptr, &size), "xdesc is NULL");
    EXPECT_REJECTED(CUDNN_STATUS_BAD_PARAM, cudnnDropoutGetReserveSpaceSize(x, nullptr), "sizeInBytes is NULL");
    EXPECT_EQ(cudnnDestroyTensorDescriptor(x), CUDNN_STATUS_SUCCESS);
}

TEST(DropoutDescriptor, DestroyingNullIsANoOp) {
    EXPECT_EQ(cudnnDestroyDropoutDescriptor(nullptr), CUDNN_STATUS_SUCCESS);
}
