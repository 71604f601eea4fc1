// Helpers for tests labelled gpu: skip where no usable CUDA device exists.
#pragma once

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#define LIBREDNN_SKIP_WITHOUT_GPU()                                                         \
    do {                                                                                    \
        int count_ = 0;                                                                     \
        if (cudaGetDeviceCount(&count_) != cudaSuccess || count_ == 0) {                    \
            cudaGetLastError();                                                             \
            GTEST_SKIP() << "no CUDA device: this test needs an NVIDIA GPU and its driver"; \
        }                                                                                   \
    } while (0)
