// The strided CUDA-core matrix product (src/cuda/common/gemm_simt) against a double product on the host,
// in float and double, on shapes that take each of its kernels (a warp per column, a lane per column,
// 16 x 64, 64 x 64 and 128 x 128 tiles, k split over blocks), with A and B in both orientations, a bias, and
// accumulation.
#include "cuda/common/gemm_simt.hpp"
#include "gpu_test_util.hpp"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

namespace {

using librednn::cuda::gemm_simt;
using librednn::cuda::GemmOperands;
using librednn::gpu_test::device_copy;

struct Shape {
    int64_t m, n, k;
    bool a_k_contiguous, b_k_contiguous, bias, accumulate;
    bool scratch = false;  // room to split k
};

template <class C>
void check(const Shape &s, std::mt19937_64 &rng) {
    SCOPED_TRACE(testing::Message() << "m " << s.m << " n " << s.n << " k " << s.k << " a_k_contiguous "
                                    << s.a_k_contiguous << " b_k_contiguous " << s.b_k_contiguous << " bias " << s.bias
                                    << " accumulate " << s.accumulate << " scratch " << s.scratch << " bytes "
                                    << sizeof(C));
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    auto random = [&](int64_t count) {
        std::vector<C> v(static_cast<size_t>(count));
        for (C &x : v) x = static_cast<C>(uniform(rng));
        return v;
    };
    const std::vector<C> a = random(s.m * s.k), b = random(s.k * s.n), bias = random(s.n), c0 = random(s.m * s.n);
    GemmOperands<C> g;
    g.m = s.m, g.n = s.n, g.k = s.k;
    g.a_row = s.a_k_contiguous ? s.k : 1, g.a_col = s.a_k_contiguous ? 1 : s.m;
    g.b_row = s.b_k_contiguous ? 1 : s.n, g.b_col = s.b_k_contiguous ? s.k : 1;
    g.c_row = s.n, g.accumulate = s.accumulate;
    C *da = device_copy(a), *db = device_copy(b), *dbias = device_copy(bias), *dc = device_copy(c0);
    g.a = da, g.b = db, g.c = dc, g.bias = s.bias ? dbias : nullptr;
    C *scratch = nullptr;
    if (s.scratch) {
        g.scratch_elements = librednn::cuda::kGemmMaxSplit * s.m * s.n;
        ASSERT_EQ(cudaMalloc(&scratch, static_cast<size_t>(g.scratch_elements) * sizeof(C)), cudaSuccess);
        g.scratch = scratch;
    }
    ASSERT_EQ(gemm_simt<C>(nullptr, g), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<C> got(c0.size());
    ASSERT_EQ(cudaMemcpy(got.data(), dc, got.size() * sizeof(C), cudaMemcpyDeviceToHost), cudaSuccess);
    const double u = std::numeric_limits<C>::epsilon() / 2;
    for (int64_t i = 0; i < s.m; ++i)
        for (int64_t j = 0; j < s.n; ++j) {
            double want = 0, magnitude = 0;
            for (int64_t l = 0; l < s.k; ++l) {
                const double product = static_cast<double>(a[i * g.a_row + l * g.a_col]) * b[l * g.b_row + j * g.b_col];
                want += product;
                magnitude += std::fabs(product);
            }
            if (s.bias) want += bias[j], magnitude += std::fabs(bias[j]);
            if (s.accumulate) want += c0[i * s.n + j], magnitude += std::fabs(c0[i * s.n + j]);
            // Any order of k + 2 rounded additions: at most (k + 2) u of the magnitude.
            const double allowed = static_cast<double>(s.k + 2) * u * magnitude;
            ASSERT_LE(std::fabs(got[i * s.n + j] - want), allowed) << "C(" << i << ", " << j << ")";
        }
    cudaFree(da), cudaFree(db), cudaFree(dbias), cudaFree(dc), cudaFree(scratch);
}

TEST(GemmSimt, MatchesDoubleProductOnEveryKernelsShapes) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(7);
    const Shape shapes[] = {
        {1, 300, 77, true, true, true, false},             // a warp per column
        {8, 70, 1000, true, true, false, true},            // a warp per column, long k
        {5, 130, 200, true, false, true, true},            // a lane per column
        {1, 33, 4100, false, false, false, false},         // a lane per column, long k, A by columns
        {40, 100, 33, true, false, true, false},           // 16 x 64 tiles
        {2000, 600, 40, false, true, false, true},         // 64 x 64 tiles
        {3000, 2000, 70, true, true, true, false},         // 128 x 128 tiles
        {2500, 1100, 300, false, false, true, true},       // 128 x 128 tiles, A and B by their other index
        {64, 2048, 1024, true, true, true, false, true},   // 16 x 64 tiles, k split over blocks
        {64, 1000, 4100, true, false, false, true, true},  // the same, a ragged last part
        {30, 70, 50, true, true, true, true, true},        // room to split, k too short to
        {1, 1024, 4096, true, false, true, true, true},    // a lane per column, k split over blocks
        {6, 100, 3001, false, false, false, false, true},  // the same, a ragged last part
    };
    for (const Shape &s : shapes) {
        check<float>(s, rng);
        check<double>(s, rng);
    }
}

}  // namespace
