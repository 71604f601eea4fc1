// CTC loss on the GPU (the kernel behind cudnnCTCLoss and cudnnCTCLoss_v8): one block per sequence, the
// time loop inside it. In double, in log space: the step normalisers (softmax mode) and log-alpha for
// every step go to the workspace (ops/ctc_loss/problem.hpp has its layout), two rows of beta and the
// label live in shared memory, and as beta walks back each step's posteriors are summed in a fixed order
// (the blank's by a tree over the block, each letter's along the chain of its repeats) and the gradient
// row written. Deterministic. Labels and lengths in host memory are first copied into the workspace;
// arrays in device memory (the _v8 call) are read in place, and a sequence whose lengths or labels are
// out of range there gets cost NaN and its gradients are left unwritten (the host never sees them).
#pragma once

#include "core/status.hpp"
#include "ops/ctc_loss/problem.hpp"

#include <cuda_runtime_api.h>

namespace librednn::cuda {

Status ctc_loss(cudaStream_t stream, const CtcLossProblem &problem, const CtcLossBuffers &buffers, void *workspace);

}  // namespace librednn::cuda
