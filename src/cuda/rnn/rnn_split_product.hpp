// Backward data's recurrent product of the CUDA RNN on TF32 tensor cores, for batches of 17 to 64 sequences
// (docs/RNN.md, "On CUDA"): dh for the step before is R^T times the step's recurrent gate gradients, a product of
// batch rows, projSize columns and gates x hidden terms. Its blocks take 64 rows by 64 columns each and split the
// terms between them (32 a slice, double-buffered asynchronous copies into shared memory, mma.sync m16n8k8 with
// float sums); each block leaves its part in the workspace's split scratch, and the next step's cell kernel adds a
// unit's parts in the order of the splits (deterministic) together with the layer output's gradient. So a step is
// two launches, where gemm_tf32 with its split sum and the kernels around them were five (the product alone 18 us
// of a 35 us step at batch 64, hidden 512: bench/results/2026-12-03-h200-rnn-step-products/).
#pragma once

#include "core/status.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

// How one problem's product splits: `splits` parts of `slices` 32-term slices each, over column_tiles x row_tiles
// tiles of 64 x 64.
struct RnnSplitProduct {
    int splits = 0, slices = 0, column_tiles = 0, row_tiles = 0;
};

// Whether the split product runs this problem's backward-data steps, and how (into *plan): float compute under a
// math type that allows TF32 (not CUDNN_FMA_MATH), no projection, hidden a multiple of 4, 17 to 64 sequences,
// the parts fitting `scratch_elements`, and LIBREDNN_RNN_SPLIT_STEP not "0" (a measurement switch, read once).
// The caller checks the operands' 16-byte alignment (rnn_split_product_aligned). False with a sentence in `reason`
// otherwise.
bool rnn_split_product_plan(const RnnProblem &problem, int64_t scratch_elements, RnnSplitProduct *plan,
                            const char **reason = nullptr);

// Whether the operands lie where the kernel's 16-byte copies need them.
bool rnn_split_product_aligned(const float *grads, int64_t grads_row, const float *recurrent);

// parts[split][n][k] = the sum over the split's terms j of grads[n][j] R[j][k], n < N, k < P, j < gH; grads rows at
// stride grads_row, R [gH][P] row-major.
Status rnn_split_product(cudaStream_t stream, const RnnSplitProduct &plan, const float *grads, int64_t grads_row,
                         const float *recurrent, int N, int P, int gH, float *parts);

}  // namespace librednn::cuda
