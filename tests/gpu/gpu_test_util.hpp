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

// A device copy of `values` (cudaMalloc'd: the caller frees it), failures reported to the test.
template <class C>
C *device_copy(const std::vector<C> &values) {
    C *at = nullptr;
    EXPECT_EQ(cudaMalloc(&at, values.size() * sizeof(C)), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(at, values.data(), values.size() * sizeof(C), cudaMemcpyHostToDevice), cudaSuccess);
    return at;
}

}  // namespace librednn::gpu_test
