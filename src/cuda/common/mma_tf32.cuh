// TF32 tensor-core building blocks for kernels that stage their operands themselves (gemm_tf32, the RNN's
// fused step): a float rounded to TF32 (to nearest, ties away), and one warp-wide mma.sync m16n8k8 with float
// accumulation (sm_80 and later; the fragments' lane layout is PTX's for .row.col).
#pragma once

#include <cstdint>

namespace librednn::cuda {

// x rounded to TF32's 10 fraction bits, as the 32-bit pattern the mma reads (the low 13 bits zero).
__device__ __forceinline__ uint32_t tf32_bits(float x) {
    uint32_t r;
    asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
    return r;
}

// x rounded to TF32 as a float (its low 13 bits zero): a value kernels keep rounded once, for the mma to read as
// it is, instead of rounding at each read.
__device__ __forceinline__ float tf32_rounded(float x) { return __uint_as_float(tf32_bits(x) & 0xffffe000u); }

// d += A B for one 16 x 8 tile: A's fragment a0-a3 (rows g and g + 8, k t and t + 4 of lane 4 g + t), B's b0, b1
// (k t and t + 4, column g), d's c0-c3 (rows g and g + 8, columns 2 t and 2 t + 1).
__device__ __forceinline__ void mma_tf32_m16n8k8(float (&d)[4], uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3,
                                                 uint32_t b0, uint32_t b1) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a0), "r"(a1), "r"(a2), "r"(a3), "r"(b0), "r"(b1));
}

}  // namespace librednn::cuda
