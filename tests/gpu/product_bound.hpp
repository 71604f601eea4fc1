// The bound the GPU product tests hold C = A B (+ bias) (+ C's old value) to, against the same product in double:
// any order of k + 2 rounded float additions, plus `product_error` times the sum of the products' magnitudes (TF32
// rounds each factor: 2^-10; plain float multiplies: 0); C's columns past n (its row gap) must be untouched.
#pragma once

#include "cuda/common/gemm_simt.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace librednn::gpu_test {

// `g` gives the sizes, strides and which of bias and accumulation the product had (its pointers are not read);
// a, b, bias and c0 are the operands as the host filled them, got C as the product left it.
inline void expect_product_within_bound(const cuda::GemmOperands<float> &g, const std::vector<float> &a,
                                        const std::vector<float> &b, const std::vector<float> &bias,
                                        const std::vector<float> &c0, const std::vector<float> &got,
                                        double product_error) {
    const double u = 0x1p-24;
    for (int64_t i = 0; i < g.m; ++i)
        for (int64_t j = 0; j < g.c_row; ++j) {
            const int64_t at = i * g.c_row + j;
            if (j >= g.n) {  // the gap past each row is never written
                ASSERT_EQ(got[at], c0[at]) << "C(" << i << ", " << j << ") past the row";
                continue;
            }
            double want = 0, magnitude = 0;
            for (int64_t l = 0; l < g.k; ++l) {
                const double product = static_cast<double>(a[i * g.a_row + l * g.a_col]) * b[l * g.b_row + j * g.b_col];
                want += product;
                magnitude += std::fabs(product);
            }
            double others = 0;
            if (g.bias != nullptr) want += bias[j], others += std::fabs(bias[j]);
            if (g.accumulate) want += c0[at], others += std::fabs(c0[at]);
            const double allowed = static_cast<double>(g.k + 2) * u * (magnitude + others) + product_error * magnitude;
            ASSERT_LE(std::fabs(got[at] - want), allowed) << "C(" << i << ", " << j << ")";
        }
}

}  // namespace librednn::gpu_test
