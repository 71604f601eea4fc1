// The self-test of one installation, in three levels, each step in its own child process:
//   1 loads: the entry library loads, reports its version, passes its sub-library version checks and
//     creates a handle;
//   2 computes correctly: convolution, batch norm, max pooling, softmax and a training step against
//     the doctor's references, on every backend the machine has (LibreDNN: host, and CUDA with a GPU);
//   3 is fast: a ResNet stem on the GPU, against LibreDNN's host backend (speed-up, WARN below 5x).
// An operation the library answers with NOT_SUPPORTED is WARN "not provided by this library".
#pragma once

#include "cuda_check.hpp"
#include "installation.hpp"
#include "report.hpp"

namespace librednn::doctor {

struct SelfTestOptions {
    int level = 3;
    unsigned seed = 0;
    int stem_batch = 8;
    double minimum_speedup = 5.0;
};

void run_self_test(const InstallationFacts &target, const CudaFacts &cuda, const SelfTestOptions &options,
                   Report *report);

}  // namespace librednn::doctor
