// The bound the GPU product tests hold C = A B (+ bias) (+ C's old value) to, against the same product in double:
// any order of k + 2 rounded float additions, plus `product_error` times the sum of the products' magnitudes (TF32
// rounds each factor: 2^-10; plain float multiplies: 0); C's columns past n (its row gap) must be untouched. And a
// tighter one for the TF32 products, against the factors rounded as the kernels round them.
#pragma once

#include "cuda/common/gemm_simt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

namespace librednn::gpu_test {

// x rounded to TF32 as the kernels round it (cvt.rna: to nearest, ties away from zero, 10 fraction bits kept).
inline float tf32_rounded(float x) {
    uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    bits = (bits + 0x1000u) & 0xFFFFE000u;  // half of TF32's last place added to the magnitude, then truncated
    float rounded;
    std::memcpy(&rounded, &bits, sizeof rounded);
    return rounded;
}

// `g` gives the sizes, strides and which of bias and accumulation the product had (its pointers are not read);
// a, b, bias and c0 are the operands as the host filled them, got C as the product left it. Each element may be
// off by k + `extra_additions` additions of `u` each (0 where the data make every sum exact) of the sum of its
// terms' magnitudes, plus `product_error` of its products' magnitudes; with `tf32_factors` the double product
// takes the factors rounded to TF32 as the kernels round them.
inline void expect_product_within_bound(const cuda::GemmOperands<float> &g, const std::vector<float> &a,
                                        const std::vector<float> &b, const std::vector<float> &bias,
                                        const std::vector<float> &c0, const std::vector<float> &got,
                                        double product_error, double u = 0x1p-24, bool tf32_factors = false,
                                        int64_t extra_additions = 2) {
    const auto factor = [&](float x) { return static_cast<double>(tf32_factors ? tf32_rounded(x) : x); };
    for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.c_row; ++j) {
            const int64_t at = i * g.c_row + j;
            if (j >= g.n) {  // the gap past each row is never written
                ASSERT_EQ(got[at], c0[at]) << "C(" << i << ", " << j << ") past the row";
                continue;
            }
            double want = 0, magnitude = 0;
            for (int64_t l = 0; l < g.k; ++l) {
                const double product = factor(a[i * g.a_row + l * g.a_col]) * factor(b[l * g.b_row + j * g.b_col]);
                want += product;
                magnitude += std::fabs(product);
            }
            double others = 0;
            if (g.bias != nullptr) want += bias[j], others += std::fabs(bias[j]);
            if (g.accumulate) want += c0[at], others += std::fabs(c0[at]);
            const double allowed =
                static_cast<double>(g.k + extra_additions) * u * (magnitude + others) + product_error * magnitude;
            ASSERT_LE(std::fabs(got[at] - want), allowed) << "C(" << i << ", " << j << ")";
        }
}

// The bound for a product on TF32 tensor cores, against the double product of the factors rounded to TF32 as the
// kernels round them: a product of two TF32 values is exact in float, so only the additions err, k of them in the
// tensor cores and the split parts', the bias's and C's after; each is held to four units of float's last place of
// the sum of magnitudes (the tensor cores align an 8-term step's summands to the largest and drop the bits below,
// up to a unit each, rather than round once). A factor rounded any other way (truncated, or not at all) is outside
// it wherever k is small against 2^10 / 4; the integer test (gemm_tf32_test.cpp) catches wrong terms at any k.
inline void expect_tf32_product_within_bound(const cuda::GemmOperands<float> &g, const std::vector<float> &a,
                                             const std::vector<float> &b, const std::vector<float> &bias,
                                             const std::vector<float> &c0, const std::vector<float> &got) {
    expect_product_within_bound(g, a, b, bias, c0, got, 0.0, 4 * 0x1p-24, true, cuda::kGemmMaxSplit + 2);
}

}  // namespace librednn::gpu_test
