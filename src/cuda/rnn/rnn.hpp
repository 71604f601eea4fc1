// RNNs on the GPU (the kernels behind cudnnRNNForward, cudnnRNNBackwardData_v8 and
// cudnnRNNBackwardWeights_v8; docs/RNN.md): every cell, direction, layer count, input and bias mode, the
// LSTM projection and the three data layouts, half, float and double data (half computes in float). The
// products over all time steps at once (W x, the layer input's gradient, the weight gradients) and each
// step's recurrent product are strided matrix products on the operands in place: on the convolutions'
// implicit GEMM (TF32 tensor cores) or gemm_simt, as cuda/rnn/rnn_products.hpp chooses; small kernels apply
// the cell between them. The reserve space has the host backend's layout (ops/rnn/problem.hpp), so the
// two backends leave the same values in it. Deterministic: no atomics, fixed summation orders.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>

namespace librednn::cuda {

// Why the kernels do not take `problem` (nullptr when they do).
const char *rnn_unsupported_reason(const RnnProblem &problem);

// The workspace every pass of `problem`'s network and data needs (one size for all three, as
// cudnnGetRNNTempSpaceSizes gives one).
size_t rnn_workspace_bytes(const RnnProblem &problem);

// Runs `problem` (its direction says which pass) on `stream`.
Status rnn(cudaStream_t stream, const RnnProblem &problem, const RnnBuffers &buffers, void *workspace);

}  // namespace librednn::cuda
