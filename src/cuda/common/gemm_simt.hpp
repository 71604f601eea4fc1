// A general matrix product on CUDA cores, for the families whose products are many and small or oddly
// strided (the RNN's per-step recurrences, its gradients over time): C = beta * C + A B + bias, each
// operand addressed through its own row and column strides, so one kernel covers A B, A B^T and A^T B
// without transposing anything. Float or double in and out, accumulating in the same type; the sum over
// k runs in a fixed order (deterministic). Tensor cores are the convolution kernels' business.
#pragma once

#include "core/status.hpp"

#include <cuda_runtime_api.h>

#include <cstdint>

namespace librednn::cuda {

template <class C>
struct GemmOperands {
    int64_t m = 0, n = 0, k = 0;
    const C *a = nullptr;  // A(i, l) = a[i * a_row + l * a_col]
    int64_t a_row = 0, a_col = 0;
    const C *b = nullptr;  // B(l, j) = b[l * b_row + j * b_col]
    int64_t b_row = 0, b_col = 0;
    C *c = nullptr;  // C(i, j) = c[i * c_row + j]
    int64_t c_row = 0;
    const C *bias = nullptr;  // added to every row when not NULL: bias[j]
    bool accumulate = false;  // beta = 1 (else C is only written)
    // Every factor of A and B is a TF32 value already (float operands: the low 13 bits zero, as gemm_tf32 rounds
    // them), so that gemm_tf32 may copy them to the tensor cores untouched. Other products ignore it.
    bool tf32_rounded = false;
    // gemm_tf32 alone, on Hopper (its tensor memory accelerator's kernel): a and b point at IEEE half factors, both
    // with k contiguous (a_row, b_col count halves), each operand scaled by 2^-f16_scale_exponent of the bits of its
    // largest magnitude where a_maximum (b_maximum) points at them in device memory (f16_factors.hpp); the sums are
    // scaled back exactly. Other products turn such operands down.
    bool f16_factors = false;
    const uint32_t *a_maximum = nullptr, *b_maximum = nullptr;
    // Room for partial sums (optional): a product with few tiles and a long k then splits k over blocks and
    // adds the parts in a second kernel, in a fixed order.
    C *scratch = nullptr;
    int64_t scratch_elements = 0;
};

// The most parts a split k makes (the scratch a caller sizes: kGemmMaxSplit * m * n elements suffice).
constexpr int kGemmMaxSplit = 16;

// Queues the product on `stream`; nothing to do when m, n is empty (k = 0 writes the bias, or C kept).
template <class C>
Status gemm_simt(cudaStream_t stream, const GemmOperands<C> &operands);

}  // namespace librednn::cuda
