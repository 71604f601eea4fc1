// A recurrence step of the CUDA RNN's forward pass in one kernel (docs/RNN.md, "On CUDA"): each block takes a
// tile of hidden units, computes R h + b_R for every gate of those units and every sequence (float, fixed
// order: deterministic), and runs their cell on it, without writing R h + b_R to memory or launching a second
// kernel. h is read from one buffer of the state and written to the other (the step's h is read by every block
// while it is written). Used without a recurrent projection, for float compute (half and float data): R h on
// TF32 tensor cores where the math type allows them and the hidden size is a multiple of 16, else in FP32 on
// CUDA cores.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

template <class C>
struct CellForward;

// The fused step from batches of this many sequences: every batch above the persistent kernel's 16. Measured on
// the H200 (bench/results/2026-12-02-h200-fused-step/): at batch 64 it takes 0.52-0.69 of the unfused steps' time
// in inference, at batch 1 1.5-1.7 times it (one sequence leaves 31 lanes of each warp idle); at batch 24 the
// unfused steps (gemm_simt a step) made the LSTM h1024 training step 2.2x NVIDIA's time
// (bench/results/2026-12-03-h200-rnn-step-products/, call 4).
constexpr int kRnnFusedStepBatch = 17;

// Hidden units a block of a fused step (forward or backward) takes: gates * units rows of R. 8 from this
// hidden size (H / 8 blocks fill the H200's 132 SMs about once), else 4 (twice the blocks, each reading h or the
// gate gradients once more).
constexpr int kRnnFusedWideTileHidden = 768;

// Whether the fused step runs this problem's forward steps: batches from kRnnFusedStepBatch, float compute, no
// projection, K = hidden a multiple of 8 and R and the state 32-byte aligned with a state row of a multiple of 8
// elements (the kernel reads eight floats at a time). LIBREDNN_RNN_FUSED_STEP=0 turns it off, =fp32 keeps it off
// the tensor cores (measurement switches, read once). False with a sentence in `reason` otherwise.
bool rnn_fused_step_applies(const RnnProblem &problem, const float *recurrent, const float *state,
                            int64_t state_per_sequence, const char **reason = nullptr);

// Step cell.s: h from offset h_in of each sequence's state, the new h to h_out and the layer output; R [gates *
// hidden][hidden] row-major, bias [gates * hidden] or NULL. A sequence without step s copies h_in to h_out.
// `tensor_cores`: the math type allows TF32 (any but CUDNN_FMA_MATH).
Status rnn_fused_step_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int64_t h_in, int64_t h_out, bool tensor_cores);

// All the steps 0 .. steps - 1 of the TF32 kernel in one cooperative launch, h starting in cell.at.h and
// alternating with cell.at.h_new as the single steps do (cell.s is not read): the grid meets on a grid-wide
// barrier between steps, and each block stages and rounds its rows of R once instead of each step. *launched
// false (nothing done; the caller takes the steps one at a time) where the TF32 kernel does not take the problem
// (`tensor_cores` false, a hidden size it does not take, LIBREDNN_RNN_FUSED_STEP=fp32), LIBREDNN_RNN_PERSISTENT=0,
// fewer than 2 steps, or the device cannot hold every block at once. On Hopper the wgmma kernel
// (rnn_fused_step_wgmma.hpp) takes them first; `wgmma_declined` (when not null) gets why it did not, or null.
Status rnn_fused_steps_persistent_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                                          const float *bias, int steps, bool tensor_cores, bool *launched,
                                          const char **wgmma_declined = nullptr);

}  // namespace librednn::cuda
