// The TF32 tensor-core matrix product (src/cuda/common/gemm_tf32) against a double product on the host: A
// and B in each of their four orientations, rows wider than the matrix (the RNN's operands share rows), ragged
// tiles and k not a multiple of the slice, a bias, accumulation, and k split over blocks (with and without room
// for every part). The double product takes the factors rounded to TF32 as the kernels round them, so each element
// may be off only by its additions' roundings (k of them and a few more): a single dropped or doubled term, or a
// factor rounded otherwise, fails. Every run twice, bit for bit; C's gap past each row untouched. Every kernel:
// mma.sync everywhere, and on a GPU of compute capability 9.0 the wgmma kernel and the tensor memory accelerator's
// (operands with k contiguous, factors TF32 already, or halves), which must run there.
#include "cuda/common/gemm_tf32.hpp"
#include "cuda/common/f16_factors.hpp"
#include "cuda/common/gemm_tf32_tma.hpp"
#include "cuda/common/gemm_tf32_wgmma.hpp"
#include "cuda/common/launch_util.hpp"
#include "gpu_test_util.hpp"
#include "product_bound.hpp"

#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>

namespace {

using librednn::cuda::gemm_tf32;
using librednn::cuda::gemm_tf32_takes;
using librednn::cuda::gemm_tf32_workspace_bytes;
using librednn::cuda::GemmOperands;
using librednn::cuda::Tf32Kernel;
using librednn::gpu_test::device_copy;

struct Shape {
    int64_t m, n, k;
    bool a_k_contiguous, b_k_contiguous, bias, accumulate;
    int64_t row_gap;      // a multiple of 4: elements past each row (or column) of every operand
    bool workspace;       // room for the split parts it asks for
    bool split_expected;  // the shape leaves SMs idle without a split (the test checks the workspace asked)
};

// Data: uniform reals in [-1, 1], held to the TF32 bound; or integers in [-3, 3], whose products and sums (below
// 2^24) every kernel computes exactly, in any order and under any rounding of its additions, so that C must equal
// the double product: one dropped, doubled or misplaced term at any k fails.
enum class Data { reals, integers };

// One value of `data`'s kind.
float sample(Data data, std::mt19937_64 &rng) {
    if (data == Data::integers) return static_cast<float>(std::uniform_int_distribution<int>(-3, 3)(rng));
    return static_cast<float>(std::uniform_real_distribution<double>(-1.0, 1.0)(rng));
}

// C against the double product: exactly for integers; for reals, of the factors rounded to TF32 as the kernels round
// them (halves are TF32 values already), so that only the additions err.
void expect_product(Data data, const GemmOperands<float> &g, const std::vector<float> &a, const std::vector<float> &b,
                    const std::vector<float> &bias, const std::vector<float> &c0, const std::vector<float> &got) {
    if (data == Data::integers)
        librednn::gpu_test::expect_product_within_bound(g, a, b, bias, c0, got, 0.0, 0.0);
    else
        librednn::gpu_test::expect_tf32_product_within_bound(g, a, b, bias, c0, got);
}

void check(const Shape &s, Tf32Kernel kernel, Data data, std::mt19937_64 &rng) {
    const char *name = kernel == Tf32Kernel::wgmma ? "wgmma" : kernel == Tf32Kernel::tma ? "tma" : "mma.sync";
    SCOPED_TRACE(testing::Message() << name << (data == Data::integers ? " integers" : " reals") << " m " << s.m
                                    << " n " << s.n << " k " << s.k << " a_k_contiguous " << s.a_k_contiguous
                                    << " b_k_contiguous " << s.b_k_contiguous << " bias " << s.bias << " accumulate "
                                    << s.accumulate << " row_gap " << s.row_gap << " workspace " << s.workspace);
    GemmOperands<float> g;
    g.m = s.m, g.n = s.n, g.k = s.k;
    // Rows (or columns) of whole 16-byte vectors, as gemm_tf32 takes them, then the gap.
    const auto row = [&](int64_t length) { return (length + 3) / 4 * 4 + s.row_gap; };
    g.a_row = s.a_k_contiguous ? row(s.k) : 1, g.a_col = s.a_k_contiguous ? 1 : row(s.m);
    g.b_row = s.b_k_contiguous ? 1 : row(s.n), g.b_col = s.b_k_contiguous ? row(s.k) : 1;
    g.c_row = s.n + s.row_gap + 1, g.accumulate = s.accumulate;
    const int64_t a_span = (s.a_k_contiguous ? s.m : s.k) * (s.a_k_contiguous ? g.a_row : g.a_col);
    const int64_t b_span = (s.b_k_contiguous ? s.n : s.k) * (s.b_k_contiguous ? g.b_col : g.b_row);
    auto random = [&](int64_t count) {
        std::vector<float> v(static_cast<size_t>(count));
        for (float &x : v) x = sample(data, rng);
        return v;
    };
    // The tensor memory accelerator's kernel takes factors that are TF32 already (its callers round them).
    g.tf32_rounded = kernel == Tf32Kernel::tma;
    auto factors = [&](int64_t count) {
        std::vector<float> v = random(count);
        if (g.tf32_rounded)
            for (float &x : v) x = librednn::gpu_test::tf32_rounded(x);
        return v;
    };
    const std::vector<float> a = factors(a_span), b = factors(b_span), bias = random(s.n), c0 = random(s.m * g.c_row);
    float *da = device_copy(a), *db = device_copy(b), *dbias = device_copy(bias), *dc = device_copy(c0);
    g.a = da, g.b = db, g.c = dc, g.bias = s.bias ? dbias : nullptr;
    const char *reason = nullptr;
    ASSERT_TRUE(gemm_tf32_takes(g, &reason)) << reason;
    const size_t asked = gemm_tf32_workspace_bytes(s.m, s.n, s.k);
    EXPECT_EQ(asked > 0, s.split_expected) << "workspace asked: " << asked;
    void *workspace = nullptr;
    if (s.workspace && asked > 0) {
        ASSERT_EQ(cudaMalloc(&workspace, asked), cudaSuccess);
    }
    std::vector<float> first;
    for (int run = 0; run < 2; ++run) {
        ASSERT_EQ(cudaMemcpy(dc, c0.data(), c0.size() * sizeof(float), cudaMemcpyHostToDevice), cudaSuccess);
        ASSERT_EQ(gemm_tf32(nullptr, g, workspace, workspace != nullptr ? asked : 0, kernel), CUDNN_STATUS_SUCCESS);
        ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
        std::vector<float> got(c0.size());
        ASSERT_EQ(cudaMemcpy(got.data(), dc, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
        if (run == 1) {
            ASSERT_EQ(std::memcmp(got.data(), first.data(), got.size() * sizeof(float)), 0) << "not deterministic";
            break;
        }
        first = got;
        expect_product(data, g, a, b, bias, c0, got);
        if (::testing::Test::HasFatalFailure()) break;
    }
    cudaFree(da), cudaFree(db), cudaFree(dbias), cudaFree(dc), cudaFree(workspace);
}

TEST(GemmTf32, EveryOrientationMatchesDoubleProduct) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    std::mt19937_64 rng(21);
    const Shape shapes[] = {
        // Whole tiles, unsplit (enough tiles to fill the GPU).
        {1024, 2048, 96, true, false, true, false, 0, true, false},
        {2048, 1024, 64, true, true, false, true, 4, true, false},
        // Ragged tiles, k not a multiple of 4 or of the 32-k slice.
        {130, 70, 37, true, false, false, false, 8, true, false},
        {129, 65, 50, false, true, true, true, 4, true, false},
        {5, 3, 7, false, false, false, true, 0, true, false},
        // Long sums over few tiles: k split over blocks, parts added in order; and the same with no room.
        {256, 128, 3200, false, false, false, false, 64, true, true},
        {300, 200, 1001, false, true, true, true, 4, true, true},
        {256, 128, 3200, false, false, true, true, 0, false, true},
        {64, 1024, 4096, true, true, false, true, 12, true, true},  // a recurrence step's R^T dG at batch 64
    };
    for (Data data : {Data::reals, Data::integers}) {
        for (const Shape &s : shapes) check(s, Tf32Kernel::mma_sync, data, rng);
        if (!librednn::cuda::gemm_tf32_wgmma_available()) continue;  // WgmmaRunsWhereBuilt says whether it must
        for (const Shape &s : shapes) check(s, Tf32Kernel::wgmma, data, rng);
    }
}

// The tensor memory accelerator's kernel's shapes (both operands with k contiguous): whole and ragged 128 x 256
// tiles, k past a slice, rows wider than the matrix, a bias, accumulation, split k with and without room for the
// parts, and sums longer than its four stages, the weight gradients' k.
const Shape kTmaShapes[] = {
    {1024, 2048, 96, true, true, true, false, 0, true, false},
    {2048, 1024, 200, true, true, false, true, 4, true, false},
    {130, 300, 37, true, true, false, false, 8, true, false},
    {5, 3, 7, true, true, true, true, 0, true, false},
    {256, 512, 3200, true, true, false, false, 12, true, true},
    {300, 260, 1001, true, true, true, true, 4, true, true},
    {256, 512, 3200, true, true, false, true, 0, false, true},
};

// The kernel on TF32 factors (rounded already), on every shape above.
TEST(GemmTf32, TensorMemoryAcceleratorMatchesDoubleProduct) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!librednn::cuda::gemm_tf32_tma_available()) GTEST_SKIP() << "no tensor memory accelerator kernel here";
    std::mt19937_64 rng(22);
    for (Data data : {Data::reals, Data::integers})
        for (const Shape &s : kTmaShapes) check(s, Tf32Kernel::tma, data, rng);
}

// Half factors (GemmOperands::f16_factors) on the tensor memory accelerator's kernel: the same shapes, rows of whole
// 16-byte vectors of halves, on halves in [-1, 1] (11 significant bits: their products are exact in float, so only the
// additions err, as for TF32 factors) and on integers (exact: any dropped, doubled or misplaced term fails, and with
// 64 k a slice, a slice read as 32 k would drop half of them). Each operand once unscaled and once declared scaled (its
// largest magnitude's bits at a_maximum, b_maximum: 2^20 and 40000, exponents 6 and 1), which the kernel must undo by
// 2^7 exactly.
void check_half(const Shape &s, Data data, bool scaled, std::mt19937_64 &rng) {
    SCOPED_TRACE(testing::Message() << "half " << (data == Data::integers ? "integers" : "reals") << " scaled "
                                    << scaled << " m " << s.m << " n " << s.n << " k " << s.k << " bias " << s.bias
                                    << " accumulate " << s.accumulate << " row_gap " << s.row_gap << " workspace "
                                    << s.workspace);
    GemmOperands<float> g;
    g.m = s.m, g.n = s.n, g.k = s.k;
    const int64_t row = (s.k + 7) / 8 * 8 + 2 * s.row_gap;  // halves: whole 16-byte vectors, then the gap
    g.a_row = row, g.a_col = 1, g.b_row = 1, g.b_col = row;
    g.c_row = s.n + s.row_gap + 1, g.accumulate = s.accumulate, g.f16_factors = true;
    // The factors as halves for the device and as floats (their exact values) for the bound.
    const auto factors = [&](int64_t count, std::vector<__half> &halves) {
        std::vector<float> v(static_cast<size_t>(count));
        halves.resize(v.size());
        for (size_t i = 0; i < v.size(); ++i) {
            halves[i] = __float2half_rn(sample(data, rng));
            v[i] = __half2float(halves[i]);
        }
        return v;
    };
    std::vector<__half> a16, b16;
    std::vector<float> a = factors(s.m * row, a16), b = factors(s.n * row, b16);
    std::vector<float> bias(static_cast<size_t>(s.n)), c0(static_cast<size_t>(s.m * g.c_row));
    for (float &x : bias) x = sample(data, rng);
    for (float &x : c0) x = sample(data, rng);
    const std::vector<uint32_t> maxima = {0x49800000u /* 2^20 */, 0x471c4000u /* 40000 */};
    if (scaled) {  // what the product must come to: each factor times 2^6 (A's) and 2^1 (B's), exact
        for (float &x : a) x = std::ldexp(x, 6);
        for (float &x : b) x = std::ldexp(x, 1);
    }
    __half *da = device_copy(a16), *db = device_copy(b16);
    float *dbias = device_copy(bias), *dc = device_copy(c0);
    uint32_t *dmaxima = device_copy(maxima);
    g.a = reinterpret_cast<const float *>(da), g.b = reinterpret_cast<const float *>(db), g.c = dc;
    g.bias = s.bias ? dbias : nullptr;
    if (scaled) g.a_maximum = dmaxima, g.b_maximum = dmaxima + 1;
    const size_t asked = gemm_tf32_workspace_bytes(s.m, s.n, s.k);
    void *workspace = nullptr;
    if (s.workspace && asked > 0) {
        ASSERT_EQ(cudaMalloc(&workspace, asked), cudaSuccess);
    }
    ASSERT_EQ(gemm_tf32(nullptr, g, workspace, workspace != nullptr ? asked : 0), CUDNN_STATUS_SUCCESS);
    ASSERT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    std::vector<float> got(c0.size());
    ASSERT_EQ(cudaMemcpy(got.data(), dc, got.size() * sizeof(float), cudaMemcpyDeviceToHost), cudaSuccess);
    expect_product(data, g, a, b, bias, c0, got);
    cudaFree(da), cudaFree(db), cudaFree(dbias), cudaFree(dc), cudaFree(dmaxima), cudaFree(workspace);
}

TEST(GemmTf32, HalfFactorsMatchDoubleProduct) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!librednn::cuda::gemm_tf32_tma_available()) GTEST_SKIP() << "no tensor memory accelerator kernel here";
    std::mt19937_64 rng(23);
    for (Data data : {Data::reals, Data::integers})
        for (const Shape &s : kTmaShapes)
            for (bool scaled : {false, true}) check_half(s, data, scaled, rng);
    // Any other kernel, or rows that are not whole 16-byte vectors of halves, turns them down.
    GemmOperands<float> g;
    g.m = g.n = g.k = 8, g.a_row = g.b_col = 8, g.a_col = g.b_row = 1, g.c_row = 8, g.f16_factors = true;
    EXPECT_EQ(gemm_tf32(nullptr, g, nullptr, 0, Tf32Kernel::mma_sync), CUDNN_STATUS_NOT_SUPPORTED);
    g.a_row = 12;
    EXPECT_EQ(gemm_tf32(nullptr, g, nullptr, 0), CUDNN_STATUS_NOT_SUPPORTED);
}

// The exponent that scales an operand's largest magnitude below 2^15 (f16_factors.hpp): none up to 32767.99, one
// from 2^15 (65504, half's largest, too: its rounding must not overflow), and none for infinity and NaN.
TEST(GemmTf32, HalfFactorScaleExponent) {
    using librednn::cuda::f16_scale_exponent;
    const auto bits = [](float value) {
        uint32_t b;
        std::memcpy(&b, &value, sizeof b);
        return b;
    };
    EXPECT_EQ(f16_scale_exponent(0), 0);
    EXPECT_EQ(f16_scale_exponent(bits(1.0f)), 0);
    EXPECT_EQ(f16_scale_exponent(bits(32767.99f)), 0);
    EXPECT_EQ(f16_scale_exponent(bits(32768.0f)), 1);
    EXPECT_EQ(f16_scale_exponent(bits(65504.0f)), 1);
    EXPECT_EQ(f16_scale_exponent(bits(65536.0f)), 2);
    EXPECT_EQ(f16_scale_exponent(bits(0x1p100f)), 86);
    EXPECT_EQ(f16_scale_exponent(bits(INFINITY)), 0);
    EXPECT_EQ(f16_scale_exponent(bits(NAN)), 0);
}

// Where the library was built for sm_90a and the GPU is of compute capability 9.0 (the H200 the gpu lane runs
// on), the wgmma kernel runs, and it is the one chosen where A has k contiguous (mma.sync where m is): the
// orientations above then test what runs.
TEST(GemmTf32, WgmmaRunsWhereBuilt) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    if (!librednn::gpu_test::sm90a_build_on_sm90_gpu()) GTEST_SKIP() << "not an sm_90a build on a 9.0 GPU";
    if (librednn::cuda::switched_off("LIBREDNN_GEMM_TF32_WGMMA")) GTEST_SKIP() << "LIBREDNN_GEMM_TF32_WGMMA=0";
    const char *reason = "";
    EXPECT_TRUE(librednn::cuda::gemm_tf32_wgmma_available(&reason)) << reason;
    GemmOperands<float> g;
    g.m = 256, g.n = 256, g.k = 64, g.c_row = 256;
    g.a_row = 64, g.a_col = 1, g.b_row = 1, g.b_col = 64;  // A with k contiguous
    EXPECT_EQ(librednn::cuda::gemm_tf32_chosen_kernel(g), Tf32Kernel::wgmma);
    g.a_row = 1, g.a_col = 256;  // A with m contiguous (the weight gradients)
    EXPECT_EQ(librednn::cuda::gemm_tf32_chosen_kernel(g), Tf32Kernel::mma_sync);
    // Both with k contiguous and TF32 already: the tensor memory accelerator's kernel, which must run here too.
    g.a_row = 64, g.a_col = 1, g.tf32_rounded = true;
    if (librednn::cuda::switched_off("LIBREDNN_GEMM_TF32_TMA")) return;
    EXPECT_TRUE(librednn::cuda::gemm_tf32_tma_available(&reason)) << reason;
    EXPECT_EQ(librednn::cuda::gemm_tf32_chosen_kernel(g), Tf32Kernel::tma);
}

TEST(GemmTf32, TurnsDownOperandsWithoutSixteenByteRows) {
    LIBREDNN_SKIP_WITHOUT_GPU();
    alignas(16) static float storage[64];
    GemmOperands<float> g;
    g.m = 4, g.n = 4, g.k = 4;
    g.a = storage, g.b = storage, g.c = storage;
    g.a_row = 4, g.a_col = 1, g.b_row = 1, g.b_col = 4, g.c_row = 4;
    const char *reason = nullptr;
    EXPECT_TRUE(gemm_tf32_takes(g, &reason));
    g.a_row = 6;  // rows of 6 floats: not 16-byte runs
    EXPECT_FALSE(gemm_tf32_takes(g, &reason));
    EXPECT_NE(reason, nullptr);
    g.a_row = 4, g.b_col = 2, g.b_row = 2;  // no unit stride in B
    EXPECT_FALSE(gemm_tf32_takes(g, &reason));
    g.b_row = 1, g.b_col = 4, g.a = storage + 1;  // A misaligned
    EXPECT_FALSE(gemm_tf32_takes(g, &reason));
    g.a = storage, g.k = 0;
    EXPECT_FALSE(gemm_tf32_takes(g, &reason));
}

}  // namespace
