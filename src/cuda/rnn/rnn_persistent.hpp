// The persistent forward recurrence of the CUDA RNN (docs/RNN.md, "On CUDA"): for small batches, all the steps
// of one pseudo-layer in one kernel. Each block keeps the rows of R of its hidden units in shared memory for the
// whole sequence; a step computes R h + b_R for those units and every sequence (FP32, a fixed order:
// deterministic), runs their cell, writes the new h, and the grid waits on a grid-wide barrier before the next
// step reads it. The blocks must all be resident at once: the kernel is launched cooperatively, one block an
// SM. Without it each step is two or three launches, and a batch-1 step is their latency, not their work.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

template <class C>
struct CellForward;
template <class T, class C>
struct CellBackward;

// The persistent kernel takes batches of at most this many sequences (its cell threads are units x sequences
// of a block, at most 256). Larger batches take the fused step (kRnnFusedStepBatch) or the unfused steps.
constexpr int kRnnPersistentMaxBatch = 16;

// LIBREDNN_RNN_PERSISTENT=0 (read once) turns the persistent launches off: this kernel's and the fused step's
// (rnn_fused_step.hpp). A measurement switch.
bool rnn_persistent_switched_on();

// Whether the persistent kernel runs this problem's forward steps: float compute, no projection, batches up to
// kRnnPersistentMaxBatch, hidden sizes up to 2048, a block's gates x units rows of R (units = hidden / SMs,
// rounded up) at most 32 and within its shared memory, and the device able to hold every block at once under a
// cooperative launch. False with a sentence in `reason` otherwise.
bool rnn_persistent_forward_applies(const RnnProblem &problem, const char **reason = nullptr);

// Steps 0 .. steps - 1 of cell's pseudo-layer (cell.s is not read). h alternates between two buffers of each
// sequence's state, as in the fused step: step s reads cell.at.h and writes cell.at.h_new where s is even, the
// reverse where it is odd (a sequence without step s copies its h across). The new h also goes to the layer
// output, and in training the saved values to the reserve space. R [gates * hidden][hidden] row-major, bias
// [gates * hidden] or NULL.
Status rnn_persistent_forward(cudaStream_t stream, const CellForward<float> &cell, const float *recurrent,
                              const float *bias, int steps);

// Whether the persistent backward-data kernel runs this problem's steps: as the forward's conditions, with R^T's
// rows (a block's units' columns of R, gates x hidden long) in shared memory: gates x hidden up to 4096, and
// `exchange_elements` (the workspace's split scratch) holding two steps' gate gradients of every sequence. False with
// a sentence in `reason` otherwise.
bool rnn_persistent_backward_data_applies(const RnnProblem &problem, int64_t exchange_elements,
                                          const char **reason = nullptr);

// Steps steps - 1 .. 0 of cell's pseudo-layer in one cooperative launch (cell.s is not read): each step adds the
// layer output's gradient to dh, runs the backward cell, and makes dh for the step before from R^T times the
// step's recurrent gate gradients (exchanged through `exchange`, two buffers of [N][gates * hidden]), as the
// unfused steps do. dh and dc start, and end, in the state. The GRU needs every step's R_h h + b_Rh in pre_h
// ([T][N][hidden]; NULL for the other cells).
Status rnn_persistent_backward_data(cudaStream_t stream, const CellBackward<__half, float> &cell,
                                    const float *recurrent, const float *pre_h, float *exchange, int steps);
Status rnn_persistent_backward_data(cudaStream_t stream, const CellBackward<float, float> &cell, const float *recurrent,
                                    const float *pre_h, float *exchange, int steps);

}  // namespace librednn::cuda
