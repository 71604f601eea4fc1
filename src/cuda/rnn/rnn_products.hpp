// Where the CUDA RNN's matrix products run (docs/RNN.md, "On CUDA"). The products over every time step at
// once (W x, the layer input's gradient, the weight gradients) run on gemm_tf32 (cuda/common/gemm_tf32.hpp)
// where their operands have 16-byte rows, else on the convolutions' implicit GEMM (cuda/conv/implicit_gemm.hpp)
// as 1x1 convolutions whose tensors are the operands in place, seen through their strides, as
// cuda/conv/column_matrix.hpp does for the GEMM convolutions: TF32 tensor cores either way, where the compute
// type is float (half and float data) and the math type is not CUDNN_FMA_MATH. Everything else runs on
// gemm_simt (cuda/common/gemm_simt.hpp). rnn_product_kernel() is the one place that decides.
#pragma once

#include "core/status.hpp"
#include "cuda/common/gemm_simt.hpp"
#include "ops/conv/problem.hpp"
#include "ops/rnn/problem.hpp"

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace librednn::cuda {

// The product C = A B (operands as gemm_simt takes them, C's columns at unit stride) as the direction of a
// 1x1 convolution of one-pixel images, every operand a 2-d tensor [rows][columns] with the operand's strides:
//   forward          x = A [m][k], w = B^T [n][k], y = C [m][n]; the bias (if any) is the fused epilogue's
//   backward_data    dy = A [m][k], w = B [k][n], dx = C [m][n]
//   backward_filter  dy = A^T [k][m], x = B [k][n], dw = C [m][n]: the sum over k splits over blocks and adds
//                    its parts in a fixed order (workspace)
// All three are deterministic. Which one a product takes changes only how the kernel walks it.
enum class RnnProductShape { forward, backward_data, backward_filter };

// The products over every step at once, or one recurrence step's (a few rows each, many of them in a row).
enum class RnnProductScope { all_steps, one_step };

enum class RnnProductKernel { simt, tensor_cores };

// Which kernel runs a product of m x n results, k terms each, of `problem`: tensor cores only where they
// multiply in TF32 (float compute, any math type but FMA; double data and FMA math stay on
// gemm_simt), for every product over all steps, and for a step's product from kRnnTensorCoreStepBatch rows
// (ops/rnn/problem.hpp). LIBREDNN_RNN_STEP_PRODUCTS=simt keeps every step's product on gemm_simt (a
// measurement switch, docs/RNN.md; read once).
RnnProductKernel rnn_product_kernel(const RnnProblem &problem, RnnProductScope scope, int64_t m, int64_t n, int64_t k);

// Whether the passes hand the products over all steps TF32 operands (GemmOperands::tf32_rounded: copies rounded
// once, or K-major turned copies in backward weights), so that gemm_tf32's tensor memory accelerator kernel takes
// them: where that kernel runs (Hopper; elsewhere the copies were never measured), float compute on tensor cores,
// and T * N from 512 steps, where the copies repay themselves
// (measured on the H200, bench/results/2026-12-04-h200-rnn-weight-gradients/, call 2: backward weights at 3200
// steps (batch 64) took 0.58-0.88 of the time without, at 50 (batch 1) 1.23-1.32 at hidden 512).
// LIBREDNN_RNN_TF32_OPERANDS_MIN_STEPS (read once) moves the threshold: the tests set 1 to prepare them for every
// product (OpsCuda.RnnTf32Operands), a measurement may set a large one to prepare none.
bool rnn_prepares_tf32_operands(const RnnProblem &problem);

// Whether backward weights multiplies its W and R gradients from half factors (GemmOperands::f16_factors, each
// operand scaled by a power of two into half's range) instead of TF32 ones: for half data where it turns its operands
// (rnn_prepares_tf32_operands). The factors keep TF32's precision (11 significant bits) but for those that scale into
// half's subnormals (docs/RNN.md). LIBREDNN_RNN_F16_WEIGHTS=0 (read once) keeps TF32: a measurement switch.
bool rnn_f16_weight_products(const RnnProblem &problem);

// Backward data's W^T dG from TF32 operands on the tensor memory accelerator's kernel: where the passes prepare TF32
// operands (float compute) and LIBREDNN_RNN_TF32_INPUT_GRADIENT=0 (read once) does not keep the products as they were
// (`_wanted`), for a layer whose W, turned K-major, fits the gates piece (free once the steps are done: `width` at most
// the steps rounded up, rnn_turned_row) in whole 16-byte rows. The cells then write their W gate gradients rounded to
// TF32 too (rnn_cell_backward.cuh): the cells other than the GRU as gr (equal to gw there), the GRU into the
// workspace's `rounded` piece.
bool rnn_tf32_input_gradient_wanted(const RnnProblem &problem);
bool rnn_tf32_input_gradient(const RnnProblem &problem, int width);

// Whether backward weights' turning kernel (rnn_backward_weights.cu) takes rows of `columns` (its grid's tiles span
// them).
bool rnn_turn_fits(int64_t columns);

// `count` rows of `columns` floats, `row_stride` apart, turned into [columns][ld] (k contiguous) and rounded to TF32:
// backward weights' turning kernel, for backward data's W (rnn_turn_fits(columns)).
Status rnn_turn_tf32(cudaStream_t stream, const float *rows, int64_t count, int columns, int64_t row_stride,
                     float *turned, int64_t ld);

// The product as a convolution problem of float tensors under `math_type`, operands in place. `operands`
// needs no pointers here, only sizes and strides; a bias needs the forward shape and no accumulation.
ConvProblem rnn_product_problem(const GemmOperands<float> &operands, RnnProductShape shape, cudnnMathType_t math_type);

// The workspace backward weights' products need on tensor cores (the split sums of the largest), on the
// current device; 0 for inference and where they run on gemm_simt.
size_t rnn_product_workspace_bytes(const RnnProblem &problem);

// Runs the product on tensor cores (rnn_product_kernel chose them): a product over all steps on gemm_tf32
// where it takes the operands, else on the implicit GEMM; gemm_simt where the implicit GEMM turns this
// geometry down or would need more than `workspace_bytes`. A step's product, whatever its shape,
// walks as backward_filter with its k split over blocks into the operands' scratch where that holds the
// parts (a batch's few rows fill few tiles; the split gives every SM work), a bias written into C first.
Status rnn_product_on_tensor_cores(cudaStream_t stream, const RnnProblem &problem, RnnProductScope scope,
                                   RnnProductShape shape, const GemmOperands<float> &operands, void *workspace,
                                   size_t workspace_bytes);

// Runs the product on the kernel rnn_product_kernel chooses.
template <class C>
Status rnn_product(cudaStream_t stream, const RnnProblem &problem, RnnProductScope scope, RnnProductShape shape,
                   const GemmOperands<C> &operands, void *workspace = nullptr, size_t workspace_bytes = 0) {
    if constexpr (std::is_same_v<C, float>) {
        if (rnn_product_kernel(problem, scope, operands.m, operands.n, operands.k) == RnnProductKernel::tensor_cores)
            return rnn_product_on_tensor_cores(stream, problem, scope, shape, operands, workspace, workspace_bytes);
    }
    return gemm_simt(stream, operands);
}

// Whether the forward and backward-data passes read the weight space where it lies instead of a copy converted into
// the workspace: where the data type is the compute type (float or double data), the weight space is 32-byte aligned
// (as the workspace's pieces are, so every kernel sees the alignment it saw in the copy) and the passes round no weight
// to TF32 in place (rnn_prepares_tf32_operands). The copy took a whole pass over the weights every call (LSTM hidden
// 1024, two layers: 134 MB moved). LIBREDNN_RNN_WEIGHTS_IN_PLACE=0 (read once) keeps the copy: a measurement switch.
bool rnn_reads_weights_in_place(const RnnProblem &problem, const void *weights);

}  // namespace librednn::cuda
