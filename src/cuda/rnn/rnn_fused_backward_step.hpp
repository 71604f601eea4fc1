// A recurrence step of the CUDA RNN's backward data pass in one kernel (docs/RNN.md, "On CUDA"): each block
// takes a tile of hidden units, computes their dh, R^T times the gate gradients the step after left in the
// reserve space, in FP32 and a fixed order (deterministic), adds the layer output's gradient and runs their
// cell backward on it, without a step buffer, a separate product or further launches. A last launch (step -1)
// leaves R^T times step 0's gradients in the state, as dhx. LSTM, ReLU and tanh cells without a projection,
// float compute (half and float data).
//
// NOT YET RUN ON A GPU (written on 2026-12-02 after the session's device time was spent): off unless
// LIBREDNN_RNN_FUSED_BACKWARD=1. The first GPU run must pass RnnBackward.* on CUDA with it on, then compare the
// training step's time with it off and on before it becomes the default.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

template <class T, class C>
struct CellBackward;

// Whether the fused backward step runs this pseudo-layer's steps: switched on, a cell without a GRU's reset
// product, no projection, float compute, batches from kRnnFusedStepBatch, hidden a multiple of 8 whose columns
// of R fit in shared memory, R and the gate gradients' rows 16-byte aligned.
bool rnn_fused_backward_applies(const RnnProblem &problem, const float *recurrent, const float *grads,
                                int64_t grads_row);

// Step cell.s of the backward data pass (cell.s = -1: only R^T times step 0's gradients, into the state's dh).
// R is [gates * hidden][hidden] row-major.
template <class T>
Status rnn_fused_backward_step(cudaStream_t stream, const CellBackward<T, float> &cell, const float *recurrent);

}  // namespace librednn::cuda
