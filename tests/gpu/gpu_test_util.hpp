// Helpers for tests labelled gpu: skip where no usable CUDA device exists; copy host values to the device.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <vector>

#define LIBREDNN_SKIP_WITHOUT_GPU()                                                         \
    do {                                                                                    \
        int count_ = 0;                                                                     \
        if (cudaGetDeviceCount(&count_) != cudaSuccess || count_ == 0) {                    \
            cudaGetLastError();                                                             \
            GTEST_SKIP() << "no CUDA device: this test needs an NVIDIA GPU and its driver"; \
        }                                                                                   \
    } while (0)

namespace librednn::gpu_test {

// Whether the library was built for sm_90a (LIBREDNN_TEST_BUILT_FOR_SM90) and the current GPU is of compute
// capability 9.0: where the wgmma kernels run (the H200 the gpu lane runs on).
inline bool sm90a_build_on_sm90_gpu() {
    int device = 0, major = 0, minor = 0;
    return LIBREDNN_TEST_BUILT_FOR_SM90 && cudaGetDevice(&device) == cudaSuccess &&
           cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device) == cudaSuccess &&
           cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device) == cudaSuccess && major == 9 &&
           minor == 0;
}

// A device copy of `values` (cudaMalloc'd: the caller frees it), failures reported to the test.
template <class C>
C *device_copy(const std::vector<C> &values) {
    C *at = nullptr;
    EXPECT_EQ(cudaMalloc(&at, values.size() * sizeof(C)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(at, values.data(), values.size() * sizeof(C), cudaMemcpyHostToDevice), cudaSuccess);
    return at;
}

}  // namespace librednn::gpu_test
