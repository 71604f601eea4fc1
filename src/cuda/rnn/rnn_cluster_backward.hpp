// The backward-data recurrence of the CUDA RNN for batches of 17 to 64 sequences in one launch (docs/RNN.md, "On
// CUDA"): thread-block clusters of kRnnClusterBlocks blocks, each cluster a tile of hidden units, each block of a
// cluster one slice of gates x hidden. A block holds its slice of R (the k rows of its slice, the columns of its
// cluster's units) in shared memory, rounded to TF32, as the B operand of Hopper's warpgroup MMA, for the whole
// sequence. A step:
// - the block multiplies its slice of the step after's recurrent gate gradients (every sequence, from the
//   workspace, read from L2 in four stages of 64 terms) by its slice of R (wgmma, TF32): its part of R^T dG for the
//   cluster's units;
// - the cluster's blocks add their parts through distributed shared memory, each for its share of the units,
//   in the order of the slices (deterministic);
// - each block runs the backward cell of its units (every sequence) on that sum plus the layer output's gradient,
//   writes the gate gradients to the reserve space and the recurrent ones, rounded to TF32, to the workspace;
// - a grid-wide barrier (the launch is cooperative) before any block reads them.
// A block reads 1/kRnnClusterBlocks of each step's gate gradients where the split product's blocks and a block of
// the persistent kernel read all of them: at hidden 1024, batch 64, 16 MB of L2 reads a step instead of 128.
// Compiled for sm_90a only (src/CMakeLists.txt); other builds decline it.
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

template <class T, class C>
struct CellBackward;

// Blocks of a cluster: the slices gates x hidden is cut into.
constexpr int kRnnClusterBlocks = 8;

// The workspace elements the launch exchanges the gate gradients through (two steps' of 64 sequences, each row
// gates x hidden rounded up to whole slices of whole 32-term blocks).
int64_t rnn_cluster_backward_exchange_elements(const RnnNetwork &net);

// Whether the cluster kernel runs this problem's backward-data steps: float compute under a math type that allows
// TF32, no projection, 17 to 64 sequences, a block's slice of R within its shared memory, the exchange within
// `exchange_elements`, the device holding every cluster at once (a cooperative launch of sm_90 clusters), and
// neither LIBREDNN_RNN_PERSISTENT nor LIBREDNN_RNN_CLUSTER_STEP "0" (measurement switches, read once). False with a
// sentence in `reason` otherwise.
bool rnn_cluster_backward_applies(const RnnProblem &problem, int64_t exchange_elements, const char **reason = nullptr);

// Steps steps - 1 .. 0 of cell's pseudo-layer (cell.s is not read), as the split product's steps compute them:
// dh starts in the state (dhy) and, where `want_dhx`, ends there (the gradient reaching hx); dc likewise. The GRU
// needs every step's R_h h + b_Rh in pre_h ([T][N][hidden]; NULL for the other cells). R [gates * hidden][hidden]
// row-major. *launched false (nothing done) where the driver refuses the launch: the caller takes another path.
Status rnn_cluster_backward_data(cudaStream_t stream, const CellBackward<__half, float> &cell, const float *recurrent,
                                 const float *pre_h, float *exchange, int steps, bool want_dhx, bool *launched);
Status rnn_cluster_backward_data(cudaStream_t stream, const CellBackward<float, float> &cell, const float *recurrent,
                                 const float *pre_h, float *exchange, int steps, bool want_dhx, bool *launched);

}  // namespace librednn::cuda
