// What the two TF32 matrix-product kernels share (gemm_tf32.cu: mma.sync, gemm_tf32_wgmma.cu: wgmma): the
// product's arguments and split, the block's shape (kTileThreads threads, kTileM rows of C, slices of kTileK of
// k), which operands they take, and the epilogue that finishes an element of C.
#pragma once

#include "cuda/common/f16_factors.hpp"
#include "cuda/common/gemm_simt.hpp"

#include <cstdint>

namespace librednn::cuda::tf32_tiles {

constexpr int kTileThreads = 256, kTileM = 128, kTileK = 32;

struct Tf32Args {
    GemmOperands<float> g;
    int64_t k_per_split;
    float *partials;  // [split][m][n] when k is split, else nullptr
};

// Whether an operand with strides (unit, other) has one index at unit stride and rows of whole 16-byte vectors.
inline bool unit_stride_rows(int64_t unit, int64_t other) { return unit == 1 && other % 4 == 0 && other > 0; }

// The finished value of C(r, c) from its sum over k: plus the bias and (accumulating) C's old value.
__device__ __forceinline__ void write_result(const GemmOperands<float> &g, int64_t r, int64_t c, float sum) {
    float *at = g.c + r * g.c_row + c;
    float value = sum;
    if (g.bias != nullptr) value += g.bias[c];
    if (g.accumulate) value += *at;
    *at = value;
}

// What a sum of products of half factors is multiplied by to undo the factors' scales (GemmOperands::f16_factors):
// 2^e of each operand in turn, so that a zero sum stays zero and a sum past float's range becomes infinite, exactly
// as the unscaled product would.
struct F16Unscale {
    float a = 1.0f, b = 1.0f;
    __device__ explicit F16Unscale(const GemmOperands<float> &g) {
        a = __int_as_float((127 + f16_scale_exponent_at(g.a_maximum)) << 23);
        b = __int_as_float((127 + f16_scale_exponent_at(g.b_maximum)) << 23);
    }
    __device__ float operator()(float sum) const { return sum * a * b; }
};

// Element (r, c) of C, finished, or its sum over this block's part of k when k is split.
__device__ __forceinline__ void write_sum(const Tf32Args &args, int64_t r, int64_t c, float sum) {
    if (r >= args.g.m || c >= args.g.n) return;
    if (args.partials != nullptr) {
        args.partials[(static_cast<int64_t>(blockIdx.z) * args.g.m + r) * args.g.n + c] = sum;
    } else {
        write_result(args.g, r, c, sum);
    }
}

}  // namespace librednn::cuda::tf32_tiles
