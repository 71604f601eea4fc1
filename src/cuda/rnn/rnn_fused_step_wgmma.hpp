// The persistent fused forward step on Hopper's warpgroup MMA (sm_90a; docs/RNN.md): the mma.sync TF32 kernel's
// work (rnn_fused_step.hpp), each step's R h as wgmma products from shared memory, R's rows staged once as wgmma's
// swizzled operand and h streamed in four stages. Built only where the CUDA architectures include 90.
#pragma once

#include "core/status.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

namespace fused_step {
struct FusedStep;
}

// Whether the kernel takes a cell of `gates` gates whose hidden size (the sum over k) is `hidden`, on this device:
// false with a sentence in `reason` otherwise (the reasons below; null where it takes them).
bool rnn_fused_steps_wgmma_applies(int gates, int hidden, const char **reason = nullptr);

// All of a.steps steps in one cooperative launch, as the mma.sync persistent kernel takes them (h alternating
// between a.h_in and a.h_out, TF32 copies in a.r_in and a.r_out); `declined` null where it launched. *launched
// false with the reason in `declined` where it does not take them: LIBREDNN_RNN_FUSED_STEP_WGMMA=0 (a measurement
// switch, read once), a hidden size not a multiple of 64, no sm_90 device or sm_90a image, too little shared memory,
// or a device that cannot hold every block at once.
Status rnn_fused_steps_wgmma(cudaStream_t stream, const fused_step::FusedStep &a, bool *launched,
                             const char **declined);

}  // namespace librednn::cuda
