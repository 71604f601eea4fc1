// The self-test's operation checks, each a small function: build a problem, run it through the loaded
// library, compare with the doctor's reference. Plus the timed ResNet stem of the "is fast" level.
// They run inside a child process (selftest.cpp), with a handle and memory already set up.
#pragma once

#include "device_memory.hpp"
#include "selftest_api.hpp"

#include <random>
#include <string>
#include <vector>

namespace librednn::doctor {

struct OpResult {
    enum class Kind { pass, mismatch, not_supported, failed };
    Kind kind = Kind::failed;
    std::string detail;  // "relative error 3.1e-08 (tolerance 1e-04)", "cudnnPoolingForward: CUDNN_STATUS_..."
};

const char *op_result_name(OpResult::Kind kind);  // "pass", "mismatch", ...
OpResult::Kind op_result_kind(const std::string &name);

struct OpEnvironment {
    CudnnApi &api;
    cudnnHandle_t handle;
    Memory &memory;
    std::mt19937 &random;
};

struct OpCheck {
    const char *id;     // "convolution"
    const char *title;  // "convolution forward (2x3x13x11, 4x3x3x3 filter, pad 1, stride 2)"
    OpResult (*run)(OpEnvironment &environment);
};

// convolution, batch_norm, pooling, softmax, training_step.
const std::vector<OpCheck> &op_checks();

struct StemTiming {
    OpResult result;          // pass when it ran (the numbers below are then valid)
    double milliseconds = 0;  // median of the timed runs
    double output_sum = 0;    // of the pooled output, to compare backends
    double flops = 0;         // of one run (the convolution's multiply-adds, twice)
};

// ResNet's stem: 7x7/2 convolution 3->64 with padding 3, batch norm (inference), ReLU, 3x3/2 max
// pooling with padding 1, on batch x 3 x 224 x 224 float NCHW data. Runs warmups then timed runs.
StemTiming time_resnet_stem(OpEnvironment &environment, int batch, int warmups, int runs);

}  // namespace librednn::doctor
