// The host's matrix products, for the convolution and RNN solvers: row-major compute-type arrays, over
// the rows [m_begin, m_end) of the result (so that threads own disjoint rows and every sum keeps one
// order: deterministic whatever the thread count). Blocked so that the panel of B in use stays in
// cache; the inner loops are plain and vectorise.
#pragma once

#include <algorithm>
#include <cstdint>

namespace librednn::host {

// C[m][n] += sum_k A[m][k] * B[k][n].
template <class T>
void gemm_nn(int64_t n, int64_t k, const T *a, int64_t lda, const T *b, int64_t ldb, T *c, int64_t ldc, int64_t m_begin,
             int64_t m_end) {
    constexpr int64_t kColumns = 512, kDepth = 128;
    for (int64_t n0 = 0; n0 < n; n0 += kColumns) {
        const int64_t columns = std::min(kColumns, n - n0);
        for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
            const int64_t depth = std::min(kDepth, k - k0);
            for (int64_t m = m_begin; m < m_end; ++m) {
                T *row = c + m * ldc + n0;
                const T *a_row = a + m * lda + k0;
                for (int64_t kk = 0; kk < depth; ++kk) {
                    const T factor = a_row[kk];
                    const T *b_row = b + (k0 + kk) * ldb + n0;
                    for (int64_t j = 0; j < columns; ++j) row[j] += factor * b_row[j];
                }
            }
        }
    }
}

// C[m][n] += sum_k A[k][m] * B[k][n] (A transposed).
template <class T>
void gemm_tn(int64_t n, int64_t k, const T *a, int64_t lda, const T *b, int64_t ldb, T *c, int64_t ldc, int64_t m_begin,
             int64_t m_end) {
    constexpr int64_t kColumns = 512, kDepth = 128;
    for (int64_t n0 = 0; n0 < n; n0 += kColumns) {
        const int64_t columns = std::min(kColumns, n - n0);
        for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
            const int64_t depth = std::min(kDepth, k - k0);
            for (int64_t m = m_begin; m < m_end; ++m) {
                T *row = c + m * ldc + n0;
                for (int64_t kk = 0; kk < depth; ++kk) {
                    const T factor = a[(k0 + kk) * lda + m];
                    const T *b_row = b + (k0 + kk) * ldb + n0;
                    for (int64_t j = 0; j < columns; ++j) row[j] += factor * b_row[j];
                }
            }
        }
    }
}

// sum_k x[k] * y[k] in eight interleaved partial sums (a fixed order the compiler can vectorise).
template <class T>
T dot(const T *x, const T *y, int64_t count) {
    T partial[8] = {};
    int64_t i = 0;
    for (; i + 8 <= count; i += 8) {
        for (int j = 0; j < 8; ++j) partial[j] += x[i + j] * y[i + j];
    }
    T sum = 0;
    for (; i < count; ++i) sum += x[i] * y[i];
    for (int j = 0; j < 8; ++j) sum += partial[j];
    return sum;
}

// C[m][n] += sum_k A[m][k] * B[n][k] (B transposed, as the RNN's weight matrices are stored): dot products of
// rows, B's rows in blocks of about 64 KiB that stay in cache while every row of A passes. Each element adds
// its depth blocks' dot()s in order, whatever the rows and columns asked for: a split of m over threads, or
// of n (B and C offset by the same columns), gives the same bits.
template <class T>
void gemm_nt(int64_t n, int64_t k, const T *a, int64_t lda, const T *b, int64_t ldb, T *c, int64_t ldc, int64_t m_begin,
             int64_t m_end) {
    constexpr int64_t kDepth = 2048;
    for (int64_t k0 = 0; k0 < k; k0 += kDepth) {
        const int64_t depth = std::min(kDepth, k - k0);
        const int64_t block = std::max<int64_t>(1, (int64_t{64} << 10) / (depth * int64_t(sizeof(T))));
        for (int64_t j0 = 0; j0 < n; j0 += block) {
            const int64_t j1 = std::min(n, j0 + block);
            for (int64_t m = m_begin; m < m_end; ++m) {
                const T *a_row = a + m * lda + k0;
                T *row = c + m * ldc;
                for (int64_t j = j0; j < j1; ++j) row[j] += dot(a_row, b + j * ldb + k0, depth);
            }
        }
    }
}

}  // namespace librednn::host
